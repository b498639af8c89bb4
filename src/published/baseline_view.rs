//! A baseline's answer per feature row: its family's version ranges (the same ones the
//! compile-time header states, [`crate::caps_header::spans`]) read at the baseline's release.
//! A release no range covers — before the oldest release known, after a newest `no`, or
//! inside an interval boundary (`no` at 14.0, `yes` at 15.1, nothing between) — is
//! `unknown`.

use serde::{Deserialize, Serialize};

use super::baselines::{Baseline, Baselines};
use crate::caps_header::spans::{self, Span};
use crate::caps_header::Caps;
use crate::matrix::docs::{Docs, Family};
use crate::matrix::model::{State, StateKind, Value, IGNORED};
use crate::matrix::version::{Release, Version};

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
    /// For `yes`: what the family documents over that release besides "it is there" (a stub,
    /// deprecated, a known bug, needs a condition, header only, accepted but ignored), so a
    /// baseline never reads a bare "yes" where the cell does not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<State>,
}

impl BaselineAnswer {
    /// `yes`, `no`, `unknown`, with the states' tags: `yes · stub (ENOSYS)`.
    pub fn text(&self) -> String {
        let mut text = self.value.name().to_string();
        for st in &self.states {
            text.push_str(" · ");
            text.push_str(&st.tag());
        }
        text
    }
}

/// What a family documents at a release for a row beyond its value: (family, row, release)
/// → states.
pub type StatesAt<'a> = dyn Fn(&str, &str, &Version) -> Vec<State> + 'a;

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

/// Every feature row of `caps`, answered for every baseline, with the states `states_at`
/// gives where the answer is `yes`.
pub fn build(caps: &Caps, baselines: &Baselines, states_at: &StatesAt) -> BaselineView {
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
                    let states = match (value, Version::parse(&b.release)) {
                        (Availability::Yes, Some(release)) => {
                            states_at(&b.family, &feature.row, &release)
                        }
                        _ => Vec::new(),
                    };
                    BaselineAnswer {
                        baseline: b.id.clone(),
                        value,
                        why,
                        states,
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
    let docs = Docs::load(targets)?;
    let states_at = |family: &str, row: &str, release: &Version| {
        docs.families
            .iter()
            .find(|f| f.spec.family == family)
            .map(|f| documented_states(f, row, release))
            .unwrap_or_default()
    };
    Ok((!baselines.list.is_empty()).then(|| build(caps, &baselines, &states_at)))
}

/// The states a family documents for `row` at `release`, with "accepted, ignored" when that
/// is the documented value there.
fn documented_states(f: &Family, row: &str, release: &Version) -> Vec<State> {
    let at = Release::Exact(release.clone());
    let ignored = f
        .claim(row, &at)
        .filter(|c| matches!(&c.value, Value::Text(t) if t == IGNORED))
        .map(|c| {
            State {
                state: StateKind::Ignored,
                began: c.began,
                ends: None,
                condition: None,
                errno: None,
                symbol: None,
                note: c.note,
                source: c.source,
                claim: c.claim,
                text: String::new(),
            }
            .with_text()
        });
    ignored.into_iter().chain(f.states(row, &at)).collect()
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

    fn stub() -> State {
        State {
            state: StateKind::Stub,
            began: None,
            ends: None,
            condition: None,
            errno: Some(String::from("ENOSYS")),
            symbol: None,
            note: Some(String::from("returns ENOSYS")),
            source: String::from("MUSL-SCHED: s"),
            claim: None,
            text: String::new(),
        }
        .with_text()
    }

    /// A `yes` at a baseline carries the states the family documents there; a `no` or an
    /// unknown carries none (there is nothing for a state to qualify).
    #[rstest]
    #[case("1.2.4", Availability::Yes, "yes · stub (ENOSYS)")]
    #[case("0.9.7", Availability::No, "no")]
    #[case("0.9.0", Availability::Unknown, "unknown")]
    fn a_yes_keeps_the_states_of_its_cell(
        #[case] release: &str,
        #[case] want: Availability,
        #[case] text: &str,
    ) {
        use crate::caps_header::{FamilyAnswer, Feature};
        let caps = Caps {
            features: vec![Feature {
                row: String::from("functions.posix_spawnattr_setschedparam"),
                suffix: String::from("POSIX_SPAWNATTR_SETSCHEDPARAM"),
                answers: vec![FamilyAnswer {
                    family: String::from("linux-musl"),
                    spans: spans_of("0.9.7:n 0.9.8:y 1.2.5:y"),
                    summary: String::from("0.9.8"),
                    evidence: String::new(),
                    sources: Vec::new(),
                }],
            }],
            families: Vec::new(),
            baselines: Vec::new(),
        };
        let baselines = Baselines {
            file: None,
            checked: None,
            list: vec![Baseline {
                id: String::from("alpine"),
                title: String::from("Alpine"),
                family: String::from("linux-musl"),
                release: release.to_string(),
                evidence: crate::published::baselines::BaselineEvidence::Read,
                cite: String::from("https://example.org/"),
                note: None,
            }],
        };
        let view = build(&caps, &baselines, &|_, _, _| vec![stub()]);
        let a = view
            .answer("functions.posix_spawnattr_setschedparam", "alpine")
            .unwrap();
        assert_eq!(a.value, want, "{}", a.why);
        assert_eq!(a.text(), text);
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
