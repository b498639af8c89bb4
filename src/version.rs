//! Release numbers as the doc claims compare them: dotted numbers, with any suffix ignored,
//! and the ranges claims give. A leaf: the matrix reads claims with it, and the suite judges
//! a run by the claims generated from them (`conformance::expectations`).

use std::cmp::Ordering;

/// A dotted release number (`2.29`, `10.15`, `14.1` from `14.1-RELEASE`). Equality is the
/// ordering's: `26` and `26.0` are one release.
#[derive(Debug, Clone, Eq)]
pub struct Version(Vec<u64>);

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Version {
    /// The leading dotted number of `text`; `None` when it does not start with a digit, so a
    /// vague version (`>=1.2.5`, `unknown`) never matches a range by accident.
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim();
        if !text.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let mut parts = Vec::new();
        for part in text.split('.') {
            let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
            if digits.is_empty() {
                break;
            }
            parts.push(digits.parse().ok()?);
            if digits.len() != part.len() {
                break;
            }
        }
        Some(Version(parts))
    }

    /// A version from its components (`[2, 29]` is `2.29`).
    pub fn from_parts(parts: Vec<u64>) -> Version {
        Version(parts)
    }

    /// The dotted components, as written (`15` has one, `15.0` two).
    pub fn parts(&self) -> &[u64] {
        &self.0
    }
}

/// `2.29`: the components as dotted text.
impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&parts.join("."))
    }
}

/// What a platform says about its release: exact, or only a lower bound (musl has no version
/// API, so a probe may only know `>=1.2.5`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Release {
    Exact(Version),
    AtLeast(Version),
}

impl Release {
    pub fn parse(text: &str) -> Option<Release> {
        match text.trim().strip_prefix(">=") {
            Some(rest) => Version::parse(rest).map(Release::AtLeast),
            None => Version::parse(text).map(Release::Exact),
        }
    }
}

/// The top of a release range.
#[derive(Debug, Clone, PartialEq)]
pub enum Upper {
    Before(Version),
    Through(Version),
}

impl Upper {
    /// Whether `v` lies below this end.
    pub fn admits(&self, v: &Version) -> bool {
        match self {
            Upper::Before(b) => v < b,
            Upper::Through(t) => v <= t,
        }
    }
}

/// Whether the range `from` (inclusive; `None`: from the first) to `upper` (`None`: open)
/// holds for `release`; for `>=v`, only a range that holds for every release from `v` on.
pub fn covers(from: Option<&Version>, upper: Option<&Upper>, release: &Release) -> bool {
    match release {
        Release::Exact(v) => from.is_none_or(|f| f <= v) && upper.is_none_or(|u| u.admits(v)),
        Release::AtLeast(v) => from.is_none_or(|f| f <= v) && upper.is_none(),
    }
}

impl Ord for Version {
    /// Missing components count as zero: `15` == `15.0`.
    fn cmp(&self, other: &Self) -> Ordering {
        let len = self.0.len().max(other.0.len());
        (0..len)
            .map(|i| {
                let a = self.0.get(i).copied().unwrap_or(0);
                let b = other.0.get(i).copied().unwrap_or(0);
                a.cmp(&b)
            })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::{Release, Version};
    use rstest::rstest;
    use std::cmp::Ordering;

    #[rstest]
    #[case("2.29", "2.28", Ordering::Greater)]
    #[case("2.9", "2.29", Ordering::Less)]
    #[case("15", "15.0", Ordering::Equal)]
    #[case("14.1-RELEASE", "14.1", Ordering::Equal)]
    #[case("10.15.7", "10.15", Ordering::Greater)]
    fn compares(#[case] a: &str, #[case] b: &str, #[case] expected: Ordering) {
        let (a, b) = (Version::parse(a).unwrap(), Version::parse(b).unwrap());
        assert_eq!(a.cmp(&b), expected);
    }

    #[rstest]
    #[case(">=1.2.5", Some(Release::AtLeast(Version::parse("1.2.5").unwrap())))]
    #[case("2.36", Some(Release::Exact(Version::parse("2.36").unwrap())))]
    #[case("about 2", None)]
    fn releases(#[case] text: &str, #[case] expected: Option<Release>) {
        assert_eq!(Release::parse(text), expected);
    }

    #[rstest]
    #[case(">=1.2.5")]
    #[case("unknown")]
    #[case("")]
    fn vague_versions_do_not_parse(#[case] text: &str) {
        assert_eq!(Version::parse(text), None);
    }
}
