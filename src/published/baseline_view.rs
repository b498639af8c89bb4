//! A baseline's answer per feature row: its family's version ranges (the same ones the
//! compile-time header states, [`crate::caps_header::spans`]) read at the baseline's release.
//! A release no range covers — before the oldest release known, after a newest `no`, or
//! inside an interval boundary (`no` at 14.0, `yes` at 15.1, nothing between) — is
//! `unknown`.

use serde::{Deserialize, Serialize};

use super::baselines::{Baseline, Baselines};
use crate::caps_header::spans::{self, Span};
use crate::caps_header::Caps;
use crate::matrix::version::Version;

/// Whether a feature can be used on a baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Availability {
    Yes,
    No,
    Unknown,
}

impl Availability {
    pub fn name(self) -> &'static str {
        match self {
            Availability::Yes => "yes",
            Availability::No => "no",
            Availability::Unknown => "unknown",
        }
    }
}

/// One baseline's answer for one row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineAnswer {
    pub baseline: String,
    pub value: Availability,
    /// The range the answer is read from, or what lies around the release when none covers
    /// it: `no from 2.17 to before 2.29`, `between 14.0 (no) and 15.1 (yes)`.
    pub why: String,
}

/// One feature row across every baseline, in baseline order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineRow {
    /// The matrix row id (`functions.posix_spawn_file_actions_addchdir_np`).
    pub id: String,
    pub answers: Vec<BaselineAnswer>,
}

/// The baselines and every feature row's answers: the summary's `baselines` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineView {
    pub baselines: Vec<Baseline>,
    pub rows: Vec<BaselineRow>,
}

/// `2.29`: a version as dotted text.
fn dotted(v: &Version) -> String {
    v.to_string()
}

fn yes_no(value: bool) -> &'static str {
    match value {
        true => "yes",
        false => "no",
    }
}

/// The answer at `release` among `spans` (merged, sorted), with the reason.
pub fn answer_at(spans: &[Span], release: &Version) -> (Availability, String) {
    let covering = spans
        .iter()
        .find(|s| s.from <= *release && s.to.as_ref().is_none_or(|t| release < t));
    if let Some(s) = covering {
        let value = match s.value {
            true => Availability::Yes,
            false => Availability::No,
        };
        let why = match &s.to {
            Some(to) => format!(
                "{} from {} to before {}",
                yes_no(s.value),
                dotted(&s.from),
                dotted(to)
            ),
            None => format!("{} from {} on", yes_no(s.value), dotted(&s.from)),
        };
        return (value, why);
    }
    let before = spans.iter().rev().find(|s| s.from <= *release);
    let after = spans.iter().find(|s| s.from > *release);
    let why = match (before, after) {
        (Some(b), Some(a)) => format!(
            "between {} ({}) and {} ({}): nothing known in between",
            b.to.as_ref()
                .map_or_else(|| dotted(&b.from), |t| format!("before {}", dotted(t))),
            yes_no(b.value),
            dotted(&a.from),
            yes_no(a.value)
        ),
        (Some(b), None) => format!(
            "after the newest release known ({}, {}), which says nothing about later ones",
            dotted(&b.from),
            yes_no(b.value)
        ),
        (None, Some(a)) => format!(
            "older than the oldest release known ({}, {})",
            dotted(&a.from),
            yes_no(a.value)
        ),
        (None, None) => String::from("nothing known for this family"),
    };
    (Availability::Unknown, why)
}

/// Every feature row of `caps`, answered for every baseline.
pub fn build(caps: &Caps, baselines: &Baselines) -> BaselineView {
    let rows = caps
        .features
        .iter()
        .map(|feature| BaselineRow {
            id: feature.row.clone(),
            answers: baselines
                .list
                .iter()
                .map(|b| {
                    let (value, why) = match (feature.answer(&b.family), Version::parse(&b.release))
                    {
                        (Some(a), Some(release)) => {
                            answer_at(&spans::merge(a.spans.clone()), &release)
                        }
                        (None, _) => (
                            Availability::Unknown,
                            String::from("nothing known for this family"),
                        ),
                        (_, None) => (Availability::Unknown, String::from("release unreadable")),
                    };
                    BaselineAnswer {
                        baseline: b.id.clone(),
                        value,
                        why,
                    }
                })
                .collect(),
        })
        .collect();
    BaselineView {
        baselines: baselines.list.clone(),
        rows,
    }
}

/// The view of `targets/baselines.yaml` over `caps` (made from `matrix`); `None` when the
/// folder has no baselines.
pub fn of_targets(
    caps: &Caps,
    matrix: &crate::matrix::Matrix,
    targets: &std::path::Path,
) -> Result<Option<BaselineView>, crate::matrix::MatrixError> {
    let families: Vec<&str> = matrix.families.iter().map(|f| f.id.as_str()).collect();
    let baselines = Baselines::load(targets, &families)?;
    Ok((!baselines.list.is_empty()).then(|| build(caps, &baselines)))
}

impl BaselineView {
    pub fn baseline(&self, id: &str) -> Option<&Baseline> {
        let fold = |t: &str| t.to_ascii_lowercase().replace('_', "-");
        self.baselines.iter().find(|b| fold(&b.id) == fold(id))
    }

    /// The answer of row `row` for baseline `id`.
    pub fn answer(&self, row: &str, id: &str) -> Option<&BaselineAnswer> {
        self.rows
            .iter()
            .find(|r| r.id == row)?
            .answers
            .iter()
            .find(|a| a.baseline == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caps_header::spans::Point;
    use rstest::rstest;

    fn v(t: &str) -> Version {
        Version::parse(t).unwrap()
    }

    fn spans_of(text: &str) -> Vec<Span> {
        let points: Vec<Point> = text
            .split_whitespace()
            .map(|p| {
                let (release, value) = p.split_once(':').unwrap();
                Point {
                    release: v(release),
                    value: value == "y",
                    documented_from: None,
                }
            })
            .collect();
        spans::merge(spans::spans(&points))
    }

    #[rstest]
    // glibc addchdir_np: no at 2.17 and 2.28, yes from 2.29.
    #[case(
        "2.17:n 2.28:n 2.29:y 2.44:y",
        "2.17",
        Availability::No,
        "no from 2.17 to before 2.29"
    )]
    #[case(
        "2.17:n 2.28:n 2.29:y 2.44:y",
        "2.31",
        Availability::Yes,
        "yes from 2.29 on"
    )]
    #[case(
        "2.17:n 2.28:n 2.29:y 2.44:y",
        "2.12",
        Availability::Unknown,
        "older than the oldest"
    )]
    // An interval boundary containing the baseline's release: unknown, not a guess.
    #[case(
        "13.0:n 14.0:y",
        "13.2",
        Availability::Unknown,
        "between before 13.1 (no) and 14.0 (yes)"
    )]
    #[case(
        "10.1:n 11.0:n",
        "12.0",
        Availability::Unknown,
        "after the newest release known"
    )]
    fn reads_the_ranges(
        #[case] points: &str,
        #[case] at: &str,
        #[case] want: Availability,
        #[case] why: &str,
    ) {
        let (got, reason) = answer_at(&spans_of(points), &v(at));
        assert_eq!(got, want, "{reason}");
        assert!(reason.contains(why), "{reason}");
    }
}
