//! Compile-time capability data for downstream builds: `docs/spawnmatrix_caps.h` (one
//! `SPAWNMATRIX_HAVE_<FEATURE>` per function/flag row of the summary, decided from the
//! platform's version macros) and `docs/spawnmatrix_caps.rs` (the same ranges for a Rust build
//! script), both written by `spawnmatrix publish` from the stored matrix only.
//!
//! - [`spans`]: a family's releases with values → version ranges with a known answer (no
//!   guessing: a range nothing covers is unknown).
//! - [`family`]: which version macro each family has, and how a release becomes its value.
//! - [`c`], [`rust`]: the two renderings; [`check`]: the header against link columns.

pub mod c;
pub mod check;
pub mod family;
pub mod rust;
pub mod spans;

use std::collections::{BTreeMap, BTreeSet};

use crate::matrix::model::{Matrix, Value, IGNORED};
use crate::matrix::render::summary::letters;
use crate::matrix::summary::{Step, Summary};
use crate::matrix::version::{Release, Version};
use spans::{Point, Span};

/// Every feature row with each family's ranges.
#[derive(Debug, Clone, PartialEq)]
pub struct Caps {
    pub features: Vec<Feature>,
    /// Family ids in summary order, with their titles.
    pub families: Vec<(String, String)>,
    /// Baselines the header and the Rust file offer as presets (`targets/baselines.yaml`,
    /// set by `publish`; empty from [`build`]).
    pub baselines: Vec<Preset>,
}

/// A named baseline: one release of one family (`manylinux2014` = linux-glibc 2.17).
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    pub id: String,
    pub family: String,
    pub release: String,
}

impl Preset {
    /// `SPAWNMATRIX_BASELINE_` + the id upper-cased, non-alphanumerics as `_`.
    pub fn macro_name(&self) -> String {
        let id: String = self
            .id
            .chars()
            .map(|c| match c.is_ascii_alphanumeric() {
                true => c.to_ascii_uppercase(),
                false => '_',
            })
            .collect();
        format!("SPAWNMATRIX_BASELINE_{id}")
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Feature {
    /// The matrix row id (`functions.posix_spawn_file_actions_addchdir_np`).
    pub row: String,
    /// `POSIX_SPAWN_FILE_ACTIONS_ADDCHDIR_NP`: the macro is `SPAWNMATRIX_HAVE_` + this.
    pub suffix: String,
    pub answers: Vec<FamilyAnswer>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FamilyAnswer {
    pub family: String,
    pub spans: Vec<Span>,
    /// The summary's answer (`2.29`, `no`, `<=7.8`).
    pub summary: String,
    /// The releases it rests on: `no: 2.17 LD, 2.28 LD; yes: 2.29 LD, 2.31 RD`.
    pub evidence: String,
    /// The documented sources behind those releases (`KEY (citations)`).
    pub sources: Vec<String>,
}

/// Two rows would get one macro name.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("rows {0} and {1} both map to SPAWNMATRIX_HAVE_{2}")]
pub struct NameClash(pub String, pub String, pub String);

/// The macro suffix of a row id: the part after the group, upper-cased, every character
/// other than a letter or digit as `_` (`flags.POSIX_SPAWN_SETSID` → `POSIX_SPAWN_SETSID`).
pub fn suffix(row: &str) -> String {
    let name = row.split_once('.').map_or(row, |(_, rest)| rest);
    name.chars()
        .map(|c| match c.is_ascii_alphanumeric() {
            true => c.to_ascii_uppercase(),
            false => '_',
        })
        .collect()
}

/// A step's value as "is it there": `true`, or `ignored` (accepted, without effect);
/// anything else is no answer for a feature row.
fn present(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Text(t) if t == IGNORED => Some(true),
        _ => None,
    }
}

/// `no: 2.17 LD, 2.28 LD; yes: 2.29 LD`: the exact releases, grouped by value.
fn evidence_text(steps: &[(&Step, Version)]) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (step, _) in steps {
        let value = match &step.value {
            Value::Bool(true) => "yes".to_string(),
            Value::Bool(false) => "no".to_string(),
            other => other.to_string(),
        };
        let mut item = format!("{} {}", step.release, letters(&step.evidence));
        if step.disagreement {
            item.push_str(" (disagreement)");
        }
        match groups.last_mut() {
            Some((v, items)) if *v == value => items.push(item),
            _ => groups.push((value, vec![item])),
        }
    }
    groups
        .into_iter()
        .map(|(v, items)| format!("{v}: {}", items.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A source as `KEY (citation; citation)`, without the note (`docs.rs` writes `KEY: note
/// (citations)`): the header names where to look, and a reworded note leaves it unchanged.
fn short_source(text: &str) -> String {
    let key = text.split_once(": ").map_or(text, |(k, _)| k);
    match text.rsplit_once(" (") {
        Some((_, cites)) if cites.ends_with(')') => format!("{key} ({cites}"),
        _ => text.to_string(),
    }
}

/// Builds the caps of every feature row of `summary` (made from `matrix`).
pub fn build(summary: &Summary, matrix: &Matrix) -> Result<Caps, NameClash> {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut features = Vec::new();
    let rows = summary
        .sections
        .iter()
        .filter(|s| s.id == "features")
        .flat_map(|s| &s.rows);
    for row in rows {
        let suffix = suffix(&row.id);
        if let Some(other) = seen.insert(suffix.clone(), row.id.clone()) {
            return Err(NameClash(other, row.id.clone(), suffix));
        }
        let cells = matrix
            .rows
            .iter()
            .find(|r| r.id == row.id)
            .map(|r| &r.cells);
        let answers = row
            .answers
            .iter()
            .map(|a| {
                let exact: Vec<(&Step, Version)> = a
                    .history
                    .iter()
                    .filter(|s| present(&s.value).is_some())
                    .filter_map(|s| match Release::parse(&s.release) {
                        Some(Release::Exact(v)) => Some((s, v)),
                        _ => None,
                    })
                    .collect();
                let points: Vec<Point> = exact
                    .iter()
                    .map(|(s, v)| Point {
                        release: v.clone(),
                        value: present(&s.value).unwrap_or(false),
                        documented_from: s.documented_from.as_deref().and_then(Version::parse),
                    })
                    .collect();
                let sources: BTreeSet<String> = exact
                    .iter()
                    .flat_map(|(s, _)| &s.columns)
                    .filter_map(|key| cells?.get(key))
                    .flat_map(|c| {
                        [
                            c.source.as_deref(),
                            c.doc.as_ref().map(|d| d.source.as_str()),
                        ]
                    })
                    .flatten()
                    .map(short_source)
                    .collect();
                FamilyAnswer {
                    family: a.family.clone(),
                    spans: spans::spans(&points),
                    summary: a.text.clone(),
                    evidence: evidence_text(&exact),
                    sources: sources.into_iter().collect(),
                }
            })
            .collect();
        features.push(Feature {
            row: row.id.clone(),
            suffix,
            answers,
        });
    }
    Ok(Caps {
        baselines: Vec::new(),
        features,
        families: summary
            .families
            .iter()
            .map(|f| (f.id.clone(), f.title.clone()))
            .collect(),
    })
}

impl Feature {
    pub fn answer(&self, family: &str) -> Option<&FamilyAnswer> {
        self.answers.iter().find(|a| a.family == family)
    }
}

#[cfg(test)]
mod tests {
    use super::suffix;
    use rstest::rstest;

    #[rstest]
    #[case(
        "GL-NEWS: NEWS 2.29 (a (b) c) (bminor/glibc@x:NEWS:1; https://e.org/a)",
        "GL-NEWS (bminor/glibc@x:NEWS:1; https://e.org/a)"
    )]
    #[case("K: (https://e.org)", "K (https://e.org)")]
    #[case("no citations", "no citations")]
    fn short_sources(#[case] text: &str, #[case] want: &str) {
        assert_eq!(super::short_source(text), want);
    }

    #[rstest]
    #[case(
        "functions.posix_spawn_file_actions_addchdir_np",
        "POSIX_SPAWN_FILE_ACTIONS_ADDCHDIR_NP"
    )]
    #[case("flags.POSIX_SPAWN_SETSID", "POSIX_SPAWN_SETSID")]
    #[case("functions.a-b.c", "A_B_C")]
    fn suffixes(#[case] row: &str, #[case] want: &str) {
        assert_eq!(suffix(row), want);
    }
}
