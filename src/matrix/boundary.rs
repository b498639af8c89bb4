//! Where a value began, said exactly as far as the evidence allows (issue 20).
//!
//! A source read at one release says nothing about the release a value first appeared in.
//! So a boundary is one of three kinds:
//! - [`Boundary::Exact`]: the first release, because a source documents it as the first, or
//!   because the release right before it is known to differ (`2.28` no, `2.29` yes);
//! - [`Boundary::Interval`]: the first release lies between the release after one known to
//!   differ and one known to have it (`13.0` no, `13.2` yes: `13.1–13.2`);
//! - [`Boundary::AtMost`]: only a release known to have it (`≤15`).
//!
//! [`Bounds`] is how they are computed: the intersection of what each piece of evidence says.

use serde::{Deserialize, Serialize};

use super::version::Version;

/// The first release with a value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Boundary {
    /// `release` is the first. `after`: the release right before it, known to differ; absent
    /// when a source documents `release` as the first.
    Exact {
        release: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<String>,
        /// The row whose first release bounds this one from below (a flag cannot predate
        /// `functions.posix_spawn`, a case the function it calls), when that is what makes
        /// it exact.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        floor: Option<String>,
    },
    /// The first release is one of `first` ..= `last`. `after`: the last release known to
    /// differ (`first` is the release after it), when one is known by number; `floor`: the
    /// row whose first release `first` is, when that is what bounds it.
    Interval {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<String>,
        first: String,
        last: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        floor: Option<String>,
    },
    /// The first release is `release` or an earlier one.
    AtMost { release: String },
}

impl Boundary {
    /// Whether the first release is one release (not a range of them, not `≤`).
    pub fn is_exact(&self) -> bool {
        matches!(self, Boundary::Exact { .. })
    }

    /// As printed: `2.29`, `13.1–13.2`, `≤15`.
    pub fn text(&self) -> String {
        match self {
            Boundary::Exact { release, .. } => release.clone(),
            Boundary::Interval { first, last, .. } => format!("{first}–{last}"),
            Boundary::AtMost { release } => format!("≤{release}"),
        }
    }

    /// The release known to have the value (the latest the first release can be).
    pub fn last(&self) -> &str {
        match self {
            Boundary::Exact { release, .. } | Boundary::AtMost { release } => release,
            Boundary::Interval { last, .. } => last,
        }
    }

    /// The earliest the first release can be, when anything bounds it from below.
    pub fn earliest(&self) -> Option<&str> {
        match self {
            Boundary::Exact { release, .. } => Some(release),
            Boundary::Interval { first, .. } => Some(first),
            Boundary::AtMost { .. } => None,
        }
    }

    /// Whether it is exact because a source documents the release as the first.
    pub fn documented_first(&self) -> bool {
        matches!(
            self,
            Boundary::Exact {
                after: None,
                floor: None,
                ..
            }
        )
    }

    /// The row whose first release bounds this one from below, when one does.
    pub fn floor(&self) -> Option<&str> {
        match self {
            Boundary::Exact { floor, .. } | Boundary::Interval { floor, .. } => floor.as_deref(),
            Boundary::AtMost { .. } => None,
        }
    }

    /// The same boundary with every release written by `spell` (a family's one spelling).
    pub fn respelled(&self, spell: &dyn Fn(&str) -> String) -> Boundary {
        let opt = |o: &Option<String>| o.as_deref().map(spell);
        match self {
            Boundary::Exact {
                release,
                after,
                floor,
            } => Boundary::Exact {
                release: spell(release),
                after: opt(after),
                floor: floor.clone(),
            },
            Boundary::Interval {
                after,
                first,
                last,
                floor,
            } => Boundary::Interval {
                after: opt(after),
                first: spell(first),
                last: spell(last),
                floor: floor.clone(),
            },
            Boundary::AtMost { release } => Boundary::AtMost {
                release: spell(release),
            },
        }
    }

    /// Every release the boundary names.
    pub fn releases(&self) -> Vec<&str> {
        match self {
            Boundary::Exact { release, after, .. } => std::iter::once(release.as_str())
                .chain(after.as_deref())
                .collect(),
            Boundary::Interval {
                after, first, last, ..
            } => after
                .as_deref()
                .into_iter()
                .chain([first.as_str(), last.as_str()])
                .collect(),
            Boundary::AtMost { release } => vec![release],
        }
    }
}

/// The release after `v`: the next of `known` (a family's real releases, oldest first) when
/// `v` is below the newest of them, else the next number at `v`'s precision (`13.0` → `13.1`,
/// `15` → `16`).
pub fn next_release(known: &[Version], v: &Version) -> Version {
    if let Some(n) = known.iter().filter(|k| *k > v).min() {
        return n.clone();
    }
    let mut parts = v.parts().to_vec();
    match parts.last_mut() {
        Some(last) => *last += 1,
        None => parts.push(1),
    }
    Version::from_parts(parts)
}

/// A release as a number and as written.
#[derive(Debug, Clone, PartialEq)]
struct Point {
    version: Version,
    text: String,
}

impl Point {
    fn parse(text: &str) -> Option<Point> {
        Some(Point {
            version: Version::parse(text)?,
            text: text.to_string(),
        })
    }
}

/// What is known about a first release while the evidence is combined: the earliest it can
/// be (and the release known to differ that says so), the latest it can be, and whether a
/// source documents an exact first.
#[derive(Debug, Clone, PartialEq)]
pub struct Bounds {
    /// The earliest the first release can be, and the release before it known to differ.
    low: Option<(Point, Option<String>)>,
    high: Point,
    documented: bool,
    /// The row whose first release gave `low`, when one did.
    floor: Option<String>,
}

impl Bounds {
    /// The value is known at `by` (and nothing is known before it).
    pub fn at_most(by: &str) -> Option<Bounds> {
        Some(Bounds {
            low: None,
            high: Point::parse(by)?,
            documented: false,
            floor: None,
        })
    }

    /// A source documents `release` as the first.
    pub fn documented(release: &str) -> Option<Bounds> {
        let p = Point::parse(release)?;
        Some(Bounds {
            low: Some((p.clone(), None)),
            high: p,
            documented: true,
            floor: None,
        })
    }

    /// `after` is known to differ (the first release is the one after it, per `known`).
    pub fn differs_at(mut self, after: &str, known: &[Version]) -> Bounds {
        if let Some(a) = Version::parse(after) {
            let next = next_release(known, &a);
            let text = spell_like(&next, after);
            let point = Point {
                version: next,
                text,
            };
            self = self.raise(point, Some(after.to_string()));
        }
        self
    }

    /// The release range starts no earlier than `first` (a range end known to differ
    /// whose release before is not known by number: `before: X`).
    pub fn not_before(self, first: &str) -> Bounds {
        match Point::parse(first) {
            Some(p) => self.raise(p, None),
            None => self,
        }
    }

    /// The release range starts no earlier than `first`, where the row `floor` began (a
    /// flag of `posix_spawn` cannot predate it).
    pub fn not_before_row(self, first: &str, floor: &str) -> Bounds {
        let before = self.low.clone();
        let mut b = self.not_before(first);
        if b.low != before {
            b.floor = Some(floor.to_string());
        }
        b
    }

    fn raise(mut self, p: Point, after: Option<String>) -> Bounds {
        let higher = self.low.as_ref().is_none_or(|(l, _)| p.version > l.version);
        if higher {
            self.low = Some((p, after));
            self.documented = false;
            self.floor = None;
        }
        self
    }

    /// What both say: the later low end and the earlier high end. `None` when they
    /// contradict (the low end lies after the high end).
    pub fn and(&self, other: &Bounds) -> Option<Bounds> {
        let high = match other.high.version < self.high.version {
            true => other.high.clone(),
            false => self.high.clone(),
        };
        let (low, documented, floor) = match (&self.low, &other.low) {
            (Some(a), Some(b)) if b.0.version > a.0.version => {
                (Some(b.clone()), other.documented, other.floor.clone())
            }
            (Some(a), Some(b)) if b.0.version == a.0.version => (
                Some(a.clone()),
                self.documented || other.documented,
                self.floor.clone().or(other.floor.clone()),
            ),
            (Some(a), _) => (Some(a.clone()), self.documented, self.floor.clone()),
            (None, b) => (b.clone(), other.documented, other.floor.clone()),
        };
        if low.as_ref().is_some_and(|(l, _)| l.version > high.version) {
            return None;
        }
        Some(Bounds {
            low,
            high,
            documented,
            floor,
        })
    }

    /// The latest the first release can be, as a number.
    pub fn high(&self) -> Version {
        self.high.version.clone()
    }

    /// Whether the low end lies after the high end (a floor above every release known to
    /// have the value: the evidence contradicts itself).
    pub fn contradictory(&self) -> bool {
        self.low
            .as_ref()
            .is_some_and(|(l, _)| l.version > self.high.version)
    }

    /// The boundary these bounds allow.
    pub fn boundary(&self) -> Boundary {
        match &self.low {
            Some((low, after)) if low.version == self.high.version => Boundary::Exact {
                release: self.high.text.clone(),
                after: match self.documented {
                    true => None,
                    false => after.clone(),
                },
                floor: self.floor.clone().filter(|_| !self.documented),
            },
            Some((low, after)) => Boundary::Interval {
                after: after.clone(),
                first: low.text.clone(),
                last: self.high.text.clone(),
                floor: self.floor.clone(),
            },
            None => Boundary::AtMost {
                release: self.high.text.clone(),
            },
        }
    }
}

/// `v` written with as many components as `like` has (`13.1` after `13.0`, `16` after `15`).
fn spell_like(v: &Version, like: &str) -> String {
    let width = Version::parse(like).map_or(1, |l| l.parts().len());
    let mut parts = v.parts().to_vec();
    while parts.len() < width {
        parts.push(0);
    }
    parts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn v(t: &str) -> Version {
        Version::parse(t).unwrap()
    }

    #[rstest]
    // glibc addchdir_np: 2.28 known lacking, 2.29 has it: exact.
    #[case(Bounds::at_most("2.29").unwrap().differs_at("2.28", &[]), "2.29", "exact")]
    // FreeBSD: 13.0 lacking, a 13.2 tree has it: an interval.
    #[case(Bounds::at_most("13.2").unwrap().differs_at("13.0", &[]), "13.1–13.2", "interval")]
    // Only a release known to have it.
    #[case(Bounds::at_most("15").unwrap(), "≤15", "at_most")]
    // macOS 15 → 26 with the release list: exact.
    #[case(Bounds::at_most("26").unwrap().differs_at("15", &[v("14"), v("15"), v("26")]), "26", "exact")]
    #[case(Bounds::at_most("26").unwrap().differs_at("15", &[]), "16–26", "interval")]
    #[case(Bounds::documented("8.0").unwrap(), "8.0", "exact")]
    #[case(Bounds::at_most("14.0").unwrap().not_before("2.24"), "2.24–14.0", "interval")]
    fn boundaries(#[case] b: Bounds, #[case] text: &str, #[case] kind: &str) {
        let boundary = b.boundary();
        assert_eq!(boundary.text(), text);
        let json = serde_json::to_value(&boundary).unwrap();
        assert_eq!(json["kind"], kind, "{json}");
    }

    #[test]
    fn combining_takes_the_tighter_bounds_and_refuses_contradictions() {
        // Observed: 13.0 no, 14.0 yes. Documented: 13.0 no, 13.2 yes.
        let observed = Bounds::at_most("14.0").unwrap().differs_at("13.0", &[]);
        let documented = Bounds::at_most("13.2").unwrap().differs_at("13.0", &[]);
        let both = observed.and(&documented).unwrap();
        assert_eq!(both.boundary().text(), "13.1–13.2");
        // Documented first at 2.29, but 2.30 is observed without it: a contradiction.
        let late = Bounds::at_most("2.31").unwrap().differs_at("2.30", &[]);
        assert_eq!(late.and(&Bounds::documented("2.29").unwrap()), None);
        // Documented first at 2.2 while the oldest observed release is 2.17.
        let b = Bounds::at_most("2.17")
            .unwrap()
            .and(&Bounds::documented("2.2").unwrap())
            .unwrap();
        assert_eq!(
            b.boundary(),
            Boundary::Exact {
                release: "2.2".into(),
                after: None,
                floor: None,
            }
        );
        assert!(b.boundary().documented_first());
    }
}
