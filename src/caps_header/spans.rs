//! From the releases a family has evidence for to version ranges with a known answer.
//!
//! Only what the matrix observed or documented becomes a range: each release with a value is
//! a range of its own (`2.28` covers 2.28.x); two neighbouring releases with the same value
//! also cover what lies between them; a documented range start (`since 2.29`) that lies
//! between two releases with different values extends the later one back to it; after the
//! newest release a `yes` stays `yes` (the summary's "since" reading: no libc removes a spawn
//! function), while a `no` says nothing about later releases. Everything else is unknown.

use crate::matrix::version::Version;

/// One release with a value: the input.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub release: Version,
    pub value: bool,
    /// Where a documented range giving this value starts, if the matrix says.
    pub documented_from: Option<Version>,
}

/// `[from, to)` has `value`; `to: None` is open-ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub from: Version,
    pub to: Option<Version>,
    pub value: bool,
    /// `to` is only the release after `from` at its precision (a single release, `7.8` →
    /// `7.9`), not a release the matrix knows: a version scheme that cannot encode `to` may
    /// end the span right after `from`'s own value.
    pub single: bool,
}

/// The release after `v` at its precision: `2.29` → `2.30`, `14` → `15`.
fn successor(v: &Version) -> Version {
    let mut parts = v.parts().to_vec();
    match parts.last_mut() {
        Some(last) => *last += 1,
        None => parts.push(1),
    }
    Version::from_parts(parts)
}

/// The ranges `points` establish, sorted, one piece per release and per gap (so a scheme
/// that cannot express one release loses only that piece); [`merge`] joins them.
pub fn spans(points: &[Point]) -> Vec<Span> {
    let mut points = points.to_vec();
    points.sort_by(|a, b| a.release.cmp(&b.release));
    points.dedup_by(|b, a| a.release.cmp(&b.release).is_eq());
    let mut out: Vec<Span> = Vec::new();
    let mut previous: Option<(&Point, Version)> = None;
    for (i, p) in points.iter().enumerate() {
        let next = points.get(i + 1).map(|n| n.release.clone());
        let own_end = successor(&p.release);
        let (to, single) = match next {
            Some(n) if n < own_end => (n, false),
            _ => (own_end, true),
        };
        match previous {
            Some((prev, ref prev_end)) if prev.value == p.value => {
                if *prev_end < p.release {
                    out.push(span(
                        prev_end.clone(),
                        Some(p.release.clone()),
                        p.value,
                        false,
                    ));
                }
            }
            _ => {
                let floor = previous.as_ref().map(|(_, end)| end.clone());
                if let Some(d) = p
                    .documented_from
                    .as_ref()
                    .filter(|d| **d < p.release && floor.as_ref().is_none_or(|f| f <= *d))
                {
                    out.push(span(d.clone(), Some(p.release.clone()), p.value, false));
                }
            }
        }
        out.push(span(p.release.clone(), Some(to.clone()), p.value, single));
        previous = Some((p, to));
    }
    if let Some((last, end)) = previous.filter(|(last, _)| last.value) {
        out.push(span(end, None, last.value, false));
    }
    out
}

fn span(from: Version, to: Option<Version>, value: bool, single: bool) -> Span {
    Span {
        from,
        to,
        value,
        single,
    }
}

/// Joins touching spans of equal value (`[2.29, 2.30)` + `[2.30, ∞)` → `[2.29, ∞)`).
pub fn merge(spans: Vec<Span>) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    for s in spans {
        match out.last_mut() {
            Some(last)
                if last.value == s.value
                    && last.to.as_ref().is_some_and(|t| t.cmp(&s.from).is_eq()) =>
            {
                last.to = s.to;
                last.single = false;
            }
            _ => out.push(s),
        }
    }
    out
}

/// The answer at `version`: `Some(value)` inside a span, `None` where the matrix knows nothing.
pub fn lookup(spans: &[Span], version: &Version) -> Option<bool> {
    spans
        .iter()
        .find(|s| s.from <= *version && s.to.as_ref().is_none_or(|t| version < t))
        .map(|s| s.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn v(t: &str) -> Version {
        Version::parse(t).unwrap()
    }

    /// `"2.28:n 2.29:y@2.29"`: release, value, optional documented start.
    fn points(text: &str) -> Vec<Point> {
        text.split_whitespace()
            .map(|p| {
                let (release, rest) = p.split_once(':').unwrap();
                let (value, from) = match rest.split_once('@') {
                    Some((value, from)) => (value, Some(v(from))),
                    None => (rest, None),
                };
                Point {
                    release: v(release),
                    value: value == "y",
                    documented_from: from,
                }
            })
            .collect()
    }

    #[rstest]
    // glibc addchdir_np: no through 2.28, yes from 2.29 on (and after 2.44).
    #[case("2.17:n 2.28:n 2.29:y 2.44:y", "2.28", Some(false))]
    #[case("2.17:n 2.28:n 2.29:y 2.44:y", "2.20", Some(false))]
    #[case("2.17:n 2.28:n 2.29:y 2.44:y", "2.29", Some(true))]
    #[case("2.17:n 2.28:n 2.29:y 2.44:y", "2.50", Some(true))]
    #[case("2.17:n 2.28:n 2.29:y 2.44:y", "2.16", None)]
    // A gap between different values is unknown, unless a documented start fills it.
    #[case("14.0:n 15.1:y", "15.0", None)]
    #[case("14.0:n 15.1:y@15.0", "15.0", Some(true))]
    #[case("14.0:n 15.1:y@15.0", "14.5", None)]
    // A documented start before the oldest release extends it back.
    #[case("2.17:y@2.2 2.44:y", "2.2", Some(true))]
    #[case("2.17:y@2.2 2.44:y", "2.1", None)]
    // A documented start at or before the previous release's own range is not a boundary.
    #[case("2.28:n 2.29:y@2.28", "2.28", Some(false))]
    // After the newest release: yes stays yes, no says nothing.
    #[case("10.1:n 11.0:n", "11.0", Some(false))]
    #[case("10.1:n 11.0:n", "11.1", None)]
    #[case("10.1:n 11.0:n", "10.5", Some(false))]
    #[case("7.8:y", "7.8", Some(true))]
    #[case("7.8:y", "7.7", None)]
    // yes, no, yes: each run keeps its own range.
    #[case("1:y 2:n 3:y", "2", Some(false))]
    #[case("1:y 2:n 3:y", "3.5", Some(true))]
    fn answers(#[case] points_text: &str, #[case] at: &str, #[case] want: Option<bool>) {
        assert_eq!(lookup(&spans(&points(points_text)), &v(at)), want);
    }

    #[test]
    fn merges_and_marks_single_releases() {
        let s = merge(spans(&points("7.8:n 7.9:n")));
        assert_eq!(s.len(), 1);
        assert!(!s[0].single);
        let s = spans(&points("7.8:n"));
        assert_eq!(s.len(), 1);
        assert!(s[0].single);
        assert_eq!(s[0].to, Some(v("7.9")));
        let s = merge(spans(&points("2.17:n 2.28:n 2.29:y 2.44:y")));
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(
            (s[0].from.clone(), s[0].to.clone()),
            (v("2.17"), Some(v("2.29")))
        );
        assert_eq!((s[1].from.clone(), s[1].to.clone()), (v("2.29"), None));
    }
}
