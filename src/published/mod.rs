//! The published data as its consumers use it: `docs/summary.json` as a versioned release a
//! consumer can pin, validate and diff (the shape MDN's browser-compat-data ships on npm), and
//! the baselines (`manylinux2014`, `debian-12`) it answers for. Downstream of `matrix` (the
//! summary) and `caps_header` (the version ranges a baseline is read from).
//!
//! - [`baselines`]: `targets/baselines.yaml`; [`baseline_view`]: each feature at a baseline.
//! - [`changes`]: what changed between two releases (`docs/CHANGES.md`, `spawnmatrix diff`).
//! - [`claims`]: the claims on the `libc` subject's outcomes as the suite's files.
//! - [`json`], [`markdown`]: the document's layout and the baselines section of SUMMARY.md.
//! - [`kernel`]: the Linux kernel as a family (man-page releases, every Linux column's runs).
//! - [`sandbox`]: each sandbox profile as a family (the raw libc and `Auto` under it).
//! - [`tree_hash`]: the git tree hash of `targets/` a release names as its input.
//!
//! - `$schema` / `$id`: the JSON Schema it validates against (`schema/summary.v1.schema.json`)
//!   and a stable name for the data set.
//! - `format`: the document's shape ([`FORMAT`]); the unversioned file before it reads as 0.
//! - `data_version`: semver of the content. A changed format is a major step, a changed cell
//!   (an answer, its evidence letters, a row or family added or removed, a baseline answer) a
//!   minor one, changed notes, sources or drill-down history only a patch.
//! - `generated_from`: the git tree hash of the `targets/` folder it was made from (what `git
//!   rev-parse COMMIT:targets` prints: it does not change when the published files are
//!   committed, so the check stays stable; `ci/checks/45-published.sh` compares them), the
//!   generator, the newest evidence's date and when the release was generated.
//! - every answer carries its `notes`, `sources` and `state`.
//!
//! The version and `docs/CHANGES.md` come from comparing the new content with the summary
//! already in the output folder (the previous release): equal content keeps that release's
//! version and changes, and from an equal `targets/` tree its metadata too, byte for byte, so
//! `publish --check` is stable.

pub mod baseline_view;
pub mod baselines;
pub mod changes;
pub mod claims;
pub mod json;
pub mod kernel;
pub mod markdown;
pub mod sandbox;
pub mod tree_hash;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::matrix::model::{Matrix, StateKind, Value, IGNORED};
use crate::matrix::summary::{Answer, Summary, SummaryFamily, SummaryRow};
use crate::published::baseline_view::BaselineView;

/// The document's shape; bump it (and the schema's file name) when the shape changes.
pub const FORMAT: u32 = 1;
/// `$schema` as published in `docs/`: the schema file, relative to the document.
pub const SCHEMA_REF: &str = "../schema/summary.v1.schema.json";
/// `$id`: the data set's name, the same in every release.
pub const DATA_ID: &str = "urn:spawnmatrix:summary";

/// What a release was made from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratedFrom {
    /// The git tree hash of `targets/` (40 hex digits).
    pub targets_tree: String,
    /// `spawnmatrix 0.1.0`.
    pub generator: String,
    /// The newest stored report's `generated_at`: how recent the evidence is.
    pub newest_evidence: String,
    /// When this release was generated (RFC 3339, UTC; `$SOURCE_DATE_EPOCH` when set, for
    /// reproducible output). Kept from the previous release while the tree and the content
    /// are the same.
    #[serde(default)]
    pub generated_at: String,
}

/// The generation time: `$SOURCE_DATE_EPOCH` (seconds, the reproducible-builds convention)
/// when it is set and a number, else now.
pub fn generation_time() -> String {
    generation_time_from(std::env::var("SOURCE_DATE_EPOCH").ok().as_deref())
}

/// [`generation_time`] with `$SOURCE_DATE_EPOCH` given.
fn generation_time_from(epoch: Option<&str>) -> String {
    match epoch.and_then(|s| s.trim().parse::<u64>().ok()) {
        Some(secs) => humantime::format_rfc3339_seconds(
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs),
        )
        .to_string(),
        None => crate::report::now_rfc3339(),
    }
}

/// One family's answer with what the cells behind it say.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishedAnswer {
    #[serde(flatten)]
    pub answer: Answer,
    /// `available`, `absent`, `ignored` (accepted, no effect), `stub` (declared and linkable,
    /// every call fails), `outcome` (an error row).
    #[serde(default)]
    pub state: String,
    /// Every note on the cells of the releases behind the answer, sorted, once each.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Every source those cells cite (`KEY: note (citations)`), sorted, once each.
    #[serde(default)]
    pub sources: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishedRow {
    pub id: String,
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// For a case row: the feature rows the case relies on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<String>,
    pub answers: Vec<PublishedAnswer>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishedSection {
    pub id: String,
    pub title: String,
    pub rows: Vec<PublishedRow>,
}

/// `docs/summary.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Published {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    #[serde(rename = "$id", default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 0: the unversioned document written before formats had numbers.
    #[serde(default)]
    pub format: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_from: Option<GeneratedFrom>,
    pub families: Vec<SummaryFamily>,
    pub sections: Vec<PublishedSection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baselines: Option<BaselineView>,
}

/// What kind of step a release is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Step {
    Patch,
    Minor,
    Major,
}

/// An answer's state word: a stub's value says it is there, but no call works.
fn state(answer: &Answer) -> &'static str {
    if answer.states.iter().any(|s| s.state == StateKind::Stub) {
        return "stub";
    }
    match answer.history.last().map(|s| &s.value) {
        Some(Value::Bool(true)) => "available",
        Some(Value::Bool(false)) => "absent",
        Some(Value::Text(t)) if t == IGNORED => "ignored",
        Some(Value::Text(_)) => "outcome",
        Some(Value::Number(_)) => "measured",
        None => "unknown",
    }
}

/// The notes and sources of every cell behind `answer` of `row`.
fn details(
    matrix: &Matrix,
    family: Option<&SummaryFamily>,
    row: &SummaryRow,
    answer: &Answer,
) -> PublishedAnswer {
    let mut notes = BTreeSet::new();
    let mut sources = BTreeSet::new();
    let cells = matrix
        .rows
        .iter()
        .find(|r| r.id == row.id)
        .map(|r| &r.cells);
    let keys = family
        .into_iter()
        .flat_map(|f| &f.releases)
        .flat_map(|r| &r.columns);
    for cell in keys.filter_map(|k| cells?.get(k)) {
        notes.extend(cell.note.iter().cloned());
        sources.extend(cell.source.iter().cloned());
        if let Some(claim) = &cell.doc {
            notes.extend(claim.note.iter().cloned());
            sources.insert(claim.source.clone());
        }
    }
    PublishedAnswer {
        state: state(answer).to_string(),
        answer: answer.clone(),
        notes: notes.into_iter().collect(),
        sources: sources.into_iter().collect(),
    }
}

impl Published {
    /// The document for `summary` (built from `matrix`), without a version yet.
    pub fn build(
        summary: &Summary,
        matrix: &Matrix,
        baselines: Option<BaselineView>,
        kernel: Option<&kernel::Kernel>,
        generated_from: GeneratedFrom,
    ) -> Published {
        let mut families = summary.families.clone();
        let mut sections: Vec<PublishedSection> = summary
            .sections
            .iter()
            .map(|sec| PublishedSection {
                id: sec.id.clone(),
                title: sec.title.clone(),
                rows: sec
                    .rows
                    .iter()
                    .map(|row| PublishedRow {
                        id: row.id.clone(),
                        label: row.label.clone(),
                        title: row.title.clone(),
                        uses: row.uses.clone(),
                        answers: row
                            .answers
                            .iter()
                            .map(|a| details(matrix, summary.family(&a.family), row, a))
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        if let Some(k) = kernel {
            let (family, section) = k.section(matrix);
            families.push(family);
            sections.push(section);
        }
        if let Some((sandbox_families, section)) = sandbox::section(matrix) {
            families.extend(sandbox_families);
            sections.push(section);
        }
        Published {
            schema: Some(SCHEMA_REF.to_string()),
            id: Some(DATA_ID.to_string()),
            format: FORMAT,
            data_version: None,
            generated_from: Some(generated_from),
            families,
            sections,
            baselines,
        }
    }

    /// The content without what names the release (version and inputs), as it is written
    /// (what is not written, such as a step's columns, does not count).
    fn content(&self) -> serde_json::Value {
        serde_json::to_value(Published {
            data_version: None,
            generated_from: None,
            ..self.clone()
        })
        .unwrap_or_default()
    }

    /// Versions `self` against the previous release: equal content keeps the previous
    /// version (and gives no changes), and when it was made from the same `targets/` tree
    /// too, its inputs and date, so the file is the previous one byte for byte. Anything else
    /// is the next version by the kind of its changes. `generated_from` always names the tree
    /// this release was made from.
    pub fn release(
        mut self,
        previous: Option<&Published>,
    ) -> (Published, Option<changes::SummaryDiff>) {
        let content = self.content();
        if let Some(prev) = previous.filter(|p| p.content() == content) {
            self.data_version = prev.data_version.clone();
            let tree = |p: &Published| p.generated_from.as_ref().map(|g| g.targets_tree.clone());
            if tree(prev) == tree(&self) {
                self.generated_from = prev.generated_from.clone();
            }
            if self.data_version.is_some() {
                return (self, None);
            }
        }
        let diff = changes::diff(previous, &self);
        self.data_version = Some(next_version(
            previous.and_then(|p| p.data_version.as_deref()),
            diff.step(),
        ));
        (self, Some(diff))
    }

    /// The plain summary (for the text renderers), without the cell details.
    pub fn summary(&self) -> Summary {
        Summary {
            families: self.families.clone(),
            sections: self
                .sections
                .iter()
                .map(|s| crate::matrix::summary::Section {
                    id: s.id.clone(),
                    title: s.title.clone(),
                    rows: s
                        .rows
                        .iter()
                        .map(|r| SummaryRow {
                            id: r.id.clone(),
                            label: r.label.clone(),
                            title: r.title.clone(),
                            uses: r.uses.clone(),
                            answers: r
                                .answers
                                .iter()
                                .map(|a| Answer {
                                    notes: a.notes.clone(),
                                    sources: a.sources.clone(),
                                    ..a.answer.clone()
                                })
                                .collect(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// Every row, features first.
    pub fn rows(&self) -> impl Iterator<Item = &PublishedRow> {
        self.sections.iter().flat_map(|s| &s.rows)
    }

    /// Parses a published summary (any format so far).
    pub fn parse(
        path: &std::path::Path,
        text: &str,
    ) -> Result<Published, crate::matrix::MatrixError> {
        serde_json::from_str(text).map_err(|e| crate::matrix::MatrixError::Json {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })
    }
}

/// The sections that are families of their own (the Linux kernel, the sandbox profiles) as
/// the page shows them: `{"families": [...], "sections": [...]}`, the same objects as
/// `summary.json`'s.
pub fn page_sections(matrix: &Matrix, kernel: Option<&kernel::Kernel>) -> String {
    let mut families: Vec<SummaryFamily> = Vec::new();
    let mut sections: Vec<PublishedSection> = Vec::new();
    if let Some(k) = kernel {
        let (family, section) = k.section(matrix);
        families.push(family);
        sections.push(section);
    }
    if let Some((sandbox_families, section)) = sandbox::section(matrix) {
        families.extend(sandbox_families);
        sections.push(section);
    }
    serde_json::json!({ "families": families, "sections": sections }).to_string()
}

/// The version after `previous` for a release of kind `step`; the first release is 1.0.0.
pub fn next_version(previous: Option<&str>, step: Option<Step>) -> String {
    let parts: Option<Vec<u64>> =
        previous.map(|p| p.split('.').filter_map(|n| n.parse().ok()).collect());
    let (major, minor, patch) = match parts.as_deref() {
        Some([a, b, c]) => (*a, *b, *c),
        _ => return String::from("1.0.0"),
    };
    match step {
        Some(Step::Major) => format!("{}.0.0", major + 1),
        Some(Step::Minor) => format!("{major}.{}.0", minor + 1),
        Some(Step::Patch) => format!("{major}.{minor}.{}", patch + 1),
        None => format!("{major}.{minor}.{patch}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn release_of(tree: &str, at: &str, families: usize) -> Published {
        Published {
            schema: Some(SCHEMA_REF.to_string()),
            id: Some(DATA_ID.to_string()),
            format: FORMAT,
            data_version: None,
            generated_from: Some(GeneratedFrom {
                targets_tree: tree.repeat(40),
                generator: String::from("spawnmatrix 0.1.0"),
                newest_evidence: String::from("2026-12-01T00:00:00Z"),
                generated_at: at.to_string(),
            }),
            families: (0..families)
                .map(|i| SummaryFamily {
                    id: format!("f{i}"),
                    title: format!("F{i}"),
                    releases: Vec::new(),
                    known_releases: Vec::new(),
                    shared_claims: Vec::new(),
                    unread: Vec::new(),
                    unsettled: Vec::new(),
                })
                .collect(),
            sections: Vec::new(),
            baselines: None,
        }
    }

    /// (previous tree, previous family count, expected version, whether the previous
    /// generated_from is kept): equal content from the same tree is the previous release byte
    /// for byte; from another tree it keeps the version but names its own tree and date.
    #[rstest]
    #[case("a", 1, "1.2.3", true)]
    #[case("b", 1, "1.2.3", false)]
    #[case("a", 2, "1.3.0", false)]
    fn a_release_names_its_own_tree(
        #[case] prev_tree: &str,
        #[case] prev_families: usize,
        #[case] version: &str,
        #[case] kept: bool,
    ) {
        let mut prev = release_of(prev_tree, "2026-12-01T10:00:00Z", prev_families);
        prev.data_version = Some(String::from("1.2.3"));
        let new = release_of("a", "2026-12-02T10:00:00Z", 1);
        let (released, _) = new.clone().release(Some(&prev));
        assert_eq!(released.data_version.as_deref(), Some(version));
        let from = released.generated_from.clone().unwrap();
        assert_eq!(
            from.targets_tree,
            "a".repeat(40),
            "the tree it was made from"
        );
        let want = match kept {
            true => prev.generated_from.unwrap(),
            false => new.generated_from.unwrap(),
        };
        assert_eq!(from, want);
        if kept {
            assert_eq!(
                json::json(&released.clone()),
                json::json(&{
                    let mut p = release_of("a", "2026-12-01T10:00:00Z", 1);
                    p.data_version = Some(String::from("1.2.3"));
                    p
                })
            );
        }
    }

    #[rstest]
    #[case(Some("1764633600"), Some("2025-12-02T00:00:00Z"))]
    #[case(Some(" 0 "), Some("1970-01-01T00:00:00Z"))]
    #[case(Some("yesterday"), None)]
    #[case(None, None)]
    fn the_generation_time_follows_source_date_epoch(
        #[case] epoch: Option<&str>,
        #[case] want: Option<&str>,
    ) {
        let got = generation_time_from(epoch);
        match want {
            Some(w) => assert_eq!(got, w),
            // Not a number, or unset: now, which is after the test was written.
            None => assert!(got.as_str() > "2026-01-01" && got.ends_with('Z'), "{got}"),
        }
    }

    #[rstest]
    #[case(None, Some(Step::Minor), "1.0.0")]
    #[case(Some("1.0.0"), Some(Step::Major), "2.0.0")]
    #[case(Some("1.2.3"), Some(Step::Minor), "1.3.0")]
    #[case(Some("1.2.3"), Some(Step::Patch), "1.2.4")]
    #[case(Some("1.2.3"), None, "1.2.3")]
    #[case(Some("garbage"), Some(Step::Patch), "1.0.0")]
    fn versions(#[case] prev: Option<&str>, #[case] step: Option<Step>, #[case] want: &str) {
        assert_eq!(next_version(prev, step), want);
    }
}
