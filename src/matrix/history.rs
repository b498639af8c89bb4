//! One row's documented history in one family: the periods its claims give (a value over a
//! range of releases) and the states over ranges (deprecated, known bug, needs a condition).
//!
//! A row's periods are read together, so a period knows where its value began: exact when
//! the claim says `since`, or when an earlier period with another value ends right before it;
//! an interval when that earlier period ends some releases before; at most its own start
//! otherwise (a source read at one release dates nothing before it). See [`Boundary`].

use super::boundary::{next_release, Boundary, Bounds};
use super::model::{Claim, State, StateKind, Value};
pub use super::version::Upper;
use super::version::{covers, Release, Version};

/// A range of releases: from (inclusive, `None` = from the first) to the upper end.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub from: Option<Version>,
    /// `from` as written.
    pub from_text: Option<String>,
    pub upper: Option<Upper>,
    /// The upper end as written.
    pub upper_text: Option<String>,
    /// `since`: a source documents `from` as the first release.
    pub documented_first: bool,
}

impl Span {
    /// Whether the range holds for the release: for `>=v`, for every release from `v` on.
    pub fn covers(&self, release: &Release) -> bool {
        covers(self.from.as_ref(), self.upper.as_ref(), release)
    }

    pub fn overlaps(&self, other: &Span) -> bool {
        let starts_before_end = |a: &Span, b: &Span| match (&a.from, &b.upper) {
            (Some(f), Some(u)) => u.admits(f),
            _ => true,
        };
        starts_before_end(self, other) && starts_before_end(other, self)
    }

    /// Where the range ends, in words: `before 2.37`, `through 15`.
    pub fn ends(&self) -> Option<String> {
        let text = self.upper_text.as_deref()?;
        match self.upper.as_ref()? {
            Upper::Before(_) => Some(format!("before {text}")),
            Upper::Through(_) => Some(format!("through {text}")),
        }
    }

    /// Whether this range ends right where `v` begins, or reaches it.
    fn reaches(&self, v: &Version, known: &[Version]) -> bool {
        match &self.upper {
            None => true,
            Some(Upper::Before(b)) => b >= v,
            Some(Upper::Through(t)) => t >= v || next_release(known, t) >= *v,
        }
    }

    /// The bounds this range's own start gives: documented first, or at most `from`.
    fn own_bounds(&self) -> Option<Bounds> {
        let text = self.from_text.as_deref()?;
        match self.documented_first {
            true => Bounds::documented(text),
            false => Bounds::at_most(text),
        }
    }
}

/// One value claim: a value over a range, with its source key and note.
#[derive(Debug, Clone, PartialEq)]
pub struct Period {
    pub value: Value,
    pub span: Span,
    pub source: String,
    pub note: Option<String>,
    /// Where the value began (computed from the row's whole history).
    pub began: Option<Boundary>,
    /// The id of the claim when it covers several rows.
    pub claim: Option<String>,
}

/// One state claim over a range.
#[derive(Debug, Clone, PartialEq)]
pub struct StatePeriod {
    pub state: StateKind,
    pub condition: Option<String>,
    pub errno: Option<String>,
    pub symbol: Option<String>,
    pub span: Span,
    pub source: String,
    pub note: Option<String>,
    /// The id of the claim when it covers several rows.
    pub claim: Option<String>,
    /// Carried by a value claim (`needs:`, `stub:`, `header_only:`): it begins where that
    /// value began.
    pub carried: bool,
}

/// A row's history: its periods in file order (the first covering a release is shown) and
/// its states.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub periods: Vec<Period>,
    pub states: Vec<StatePeriod>,
}

impl History {
    /// The first pair of periods that overlap with different values.
    pub fn overlap(&self) -> Option<(&Period, &Period)> {
        self.periods.iter().enumerate().find_map(|(i, a)| {
            self.periods[i + 1..]
                .iter()
                .find(|b| b.value != a.value && a.span.overlaps(&b.span))
                .map(|b| (a, b))
        })
    }

    /// Fills every period's [`Period::began`]; `known` is the family's release list.
    pub fn date(&mut self, known: &[Version]) {
        let began: Vec<Option<Boundary>> = (0..self.periods.len())
            .map(|i| self.bounds_of(i, known, 0).map(|b| b.boundary()))
            .collect();
        for (p, b) in self.periods.iter_mut().zip(began) {
            p.began = b;
        }
    }

    /// The bounds on where period `i`'s value began: its own start, raised by the latest
    /// earlier period with another value, or inherited from an earlier period with the same
    /// value that reaches it.
    fn bounds_of(&self, i: usize, known: &[Version], depth: usize) -> Option<Bounds> {
        let me = &self.periods[i];
        let from = me.span.from.as_ref()?;
        if me.span.documented_first {
            return me.span.own_bounds();
        }
        let earlier = |j: &usize| {
            let p = &self.periods[*j];
            *j != i && p.span.from.as_ref().is_none_or(|f| f < from)
        };
        // The same value already held before `from` and lasts until it: it began there.
        let same = (0..self.periods.len())
            .filter(earlier)
            .filter(|j| self.periods[*j].value == me.value)
            .filter(|j| self.periods[*j].span.reaches(from, known))
            .min_by(|a, b| self.periods[*a].span.from.cmp(&self.periods[*b].span.from));
        if let Some(j) = same.filter(|_| depth < self.periods.len()) {
            return match self.periods[j].span.from {
                None => None,
                Some(_) => self.bounds_of(j, known, depth + 1),
            };
        }
        let mut bounds = me.span.own_bounds()?;
        // The latest end, before `from`, of a period with another value.
        let differing = (0..self.periods.len())
            .filter(earlier)
            .filter(|j| self.periods[*j].value != me.value)
            .filter_map(|j| self.periods[j].span.upper.clone().map(|u| (j, u)))
            .filter(|(_, u)| match u {
                Upper::Before(b) => b <= from,
                Upper::Through(t) => t < from,
            })
            .max_by(|(_, a), (_, b)| end(a).cmp(end(b)));
        if let Some((j, upper)) = differing {
            let text = self.periods[j].span.upper_text.clone().unwrap_or_default();
            bounds = match upper {
                Upper::Before(_) => bounds.not_before(&text),
                Upper::Through(_) => bounds.differs_at(&text, known),
            };
        }
        Some(bounds)
    }

    /// The first period covering `release`, as a claim whose source is `source(key)`.
    pub fn claim(&self, release: &Release, source: &dyn Fn(&str) -> String) -> Option<Claim> {
        self.periods
            .iter()
            .find(|p| p.span.covers(release))
            .map(|p| Claim {
                from: p.span.from_text.clone(),
                began: p.began.clone(),
                value: p.value.clone(),
                source: source(&p.source),
                note: p.note.clone(),
                claim: p.claim.clone(),
            })
    }

    /// Every state covering `release`.
    pub fn states(&self, release: &Release, source: &dyn Fn(&str) -> String) -> Vec<State> {
        self.states
            .iter()
            .filter(|s| s.span.covers(release))
            .map(|s| {
                // A carried state begins with its value, whose start the whole history dates.
                let value_began = || {
                    self.periods
                        .iter()
                        .find(|p| p.span == s.span && p.source == s.source)
                        .and_then(|p| p.began.clone())
                };
                let began = match s.carried {
                    true => value_began(),
                    false => None,
                };
                State {
                    state: s.state,
                    began: began.or_else(|| s.span.own_bounds().map(|b| b.boundary())),
                    ends: s.span.ends(),
                    condition: s.condition.clone(),
                    errno: s.errno.clone(),
                    symbol: s.symbol.clone(),
                    note: s.note.clone(),
                    source: source(&s.source),
                    claim: s.claim.clone(),
                    text: String::new(),
                }
                .with_text()
            })
            .collect()
    }
}

fn end(u: &Upper) -> &Version {
    match u {
        Upper::Before(v) | Upper::Through(v) => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn v(t: &str) -> Version {
        Version::parse(t).unwrap()
    }

    /// `"13.0]n 13.2+y"`: `A]v` value v through A, `A)v` before A, `A+v` from A,
    /// `A!v` since A, `A-B]v` from A through B, `A-B)v` from A before B.
    fn history(text: &str) -> History {
        let periods = text
            .split_whitespace()
            .map(|p| {
                let value = Value::Text(p[p.len() - 1..].to_string());
                let body = &p[..p.len() - 2];
                let kind = &p[p.len() - 2..p.len() - 1];
                let (from, upper) = match (kind, body.split_once('-')) {
                    ("]", Some((a, b))) => (Some(a), Some((Upper::Through(v(b)), b))),
                    (")", Some((a, b))) => (Some(a), Some((Upper::Before(v(b)), b))),
                    ("]", None) => (None, Some((Upper::Through(v(body)), body))),
                    (")", None) => (None, Some((Upper::Before(v(body)), body))),
                    _ => (Some(body), None),
                };
                Period {
                    value,
                    span: Span {
                        from: from.map(v),
                        from_text: from.map(str::to_string),
                        upper_text: upper.as_ref().map(|(_, t)| t.to_string()),
                        upper: upper.map(|(u, _)| u),
                        documented_first: kind == "!",
                    },
                    source: String::from("S"),
                    note: None,
                    began: None,
                    claim: None,
                }
            })
            .collect();
        let mut h = History {
            periods,
            states: Vec::new(),
        };
        h.date(&[]);
        h
    }

    #[rstest]
    // FreeBSD addchdir_np: lacking through 13.0, a 13.2 tree has it.
    #[case("13.0]n 13.2+y", 1, Some("13.1–13.2"))]
    // Read at 14.0 only: at most 14.0.
    #[case("14.0+y", 0, Some("≤14.0"))]
    // Documented first.
    #[case("8.0!y", 0, Some("8.0"))]
    // Adjacent: before 2.24, then from 2.24.
    #[case("2.2-2.24)a 2.24+b", 1, Some("2.24"))]
    // Through 2.28, then 2.29.
    #[case("2.28]n 2.29+y", 1, Some("2.29"))]
    // illumos: 2008 → 2010 → 2025.
    #[case("2008-2010)a 2010-2025)b 2025+c", 1, Some("2010"))]
    #[case("2008-2010)a 2010-2025)b 2025+c", 2, Some("2025"))]
    #[case("2008-2010)a 2010-2025)b 2025+c", 0, Some("≤2008"))]
    // A later claim of the same value inherits the earlier start (macOS addchdir_np).
    #[case("26+y 10.14]n 10.15!y", 0, Some("10.15"))]
    // "Accepted, ignored" is a value of its own: it begins where the honoured flag ends
    // (glibc USEVFORK: vfork from 2.3.4, ignored from 2.24).
    #[case("2.3.4-2.24)t 2.24+i", 1, Some("2.24"))]
    // No start at all.
    #[case("13.0]n", 0, None)]
    fn periods_know_where_they_began(
        #[case] text: &str,
        #[case] index: usize,
        #[case] want: Option<&str>,
    ) {
        let h = history(text);
        assert_eq!(
            h.periods[index]
                .began
                .as_ref()
                .map(Boundary::text)
                .as_deref(),
            want,
            "{h:?}"
        );
    }
}
