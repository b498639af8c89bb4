//! Sandboxes as columns: each sandbox profile a Linux column ran under is a family of its own
//! (`sandbox/<profile>`), whose releases are the columns that ran it (`glibc 2.36 on 6.18`),
//! and whose rows say what the raw libc and the shared `Auto` did there.
//!
//! Two kinds of evidence, both run:
//! - a report's `sandbox` section (`spawnmatrix probe --sandbox`, the main job): its
//!   `sandbox.<profile>.*` rows, the profiles of `src/sandbox/mod.rs`;
//! - a column whose whole run was under a seccomp profile (a container under Docker's
//!   default profile, `seccomp=docker-default` in its image): its `auto_strategy` is its
//!   `sandbox.<profile>.auto` row, and its raw libc's `ret-success-pid` and `exec-enoent`
//!   cases its `libc.*` rows (`matrix::rows`), so the raw libc rows of a profile are never
//!   blank for a column that ran it.
//!
//! No value is carried from one column to another: a profile's cell for a column is that
//! column's own row, and a column that did not run a profile has no cell there.

use std::collections::BTreeMap;

use super::{PublishedAnswer, PublishedRow, PublishedSection};
use crate::matrix::model::{Cell, Column, Evidence, Matrix, Reason, Value};
use crate::matrix::summary::{Answer, ReleaseColumns, Step, SummaryFamily};

/// The section id, and the prefix of its families' ids.
pub const SECTION: &str = "sandbox";

/// The section's rows: the part of the matrix row id after `sandbox.<profile>.`, and what it
/// says, in the order shown.
const ROWS: [(&str, &str, &str); 7] = [
    (
        "libc.posix_spawn",
        "raw libc: posix_spawn",
        "the libc's posix_spawn of a program that exists, waited for",
    ),
    (
        "libc.posix_spawn_missing",
        "raw libc: posix_spawn, missing program",
        "the libc's posix_spawn of a program that does not exist: is ENOENT reported?",
    ),
    (
        "auto",
        "Auto: strategy taken",
        "the strategy the shared Command's Auto took for a plain spawn",
    ),
    (
        "forced.clone3",
        "forced clone3",
        "the shared Command forced to clone3",
    ),
    (
        "forced.clone_vfork",
        "forced clone_vfork",
        "the shared Command forced to clone(CLONE_VM|CLONE_VFORK)",
    ),
    (
        "forced.posix_spawn",
        "forced posix_spawn",
        "the shared Command forced to the libc's posix_spawn",
    ),
    (
        "forced.fork",
        "forced fork",
        "the shared Command forced to fork",
    ),
];

/// `glibc 2.36 on 6.18`: the column's libc and kernel release, what a profile's answer
/// depends on.
fn release_of(c: &Column) -> String {
    let libc = &c.platform.libc;
    let mut text = match &libc.version {
        Some(v) => format!("{} {v}", libc.name),
        None => libc.name.clone(),
    };
    if let Some(k) = &c.platform.kernel {
        let release: Vec<&str> = k.split(['.', '-']).take(2).collect();
        text.push_str(&format!(" on {}", release.join(".")));
    }
    if c.platform.seccomp_profile().is_some() {
        text.push_str(&format!(" ({})", c.platform.provenance.kind));
    }
    text
}

/// One profile's cells: by row (the `ROWS` id), each column's cell.
type ProfileCells = BTreeMap<String, Vec<(String, Cell)>>;

/// Every profile's cells, by profile name, from the matrix's `sandbox.<profile>.*` rows.
fn collect(matrix: &Matrix) -> BTreeMap<String, (Vec<&Column>, ProfileCells)> {
    let mut profiles: BTreeMap<String, (Vec<&Column>, ProfileCells)> = BTreeMap::new();
    for col in matrix.columns.iter().filter(|c| c.platform.os == "linux") {
        for row in &matrix.rows {
            let Some(rest) = row.id.strip_prefix("sandbox.") else {
                continue;
            };
            let (Some(cell), Some((profile, what))) =
                (row.cells.get(&col.key), rest.split_once('.'))
            else {
                continue;
            };
            let entry = profiles.entry(profile.to_string()).or_default();
            if !entry.0.iter().any(|c| c.key == col.key) {
                entry.0.push(col);
            }
            entry
                .1
                .entry(what.to_string())
                .or_default()
                .push((col.key.clone(), cell.clone()));
        }
    }
    profiles
}

/// The families (one per profile) and the section, or `None` when no column ran a profile.
pub fn section(matrix: &Matrix) -> Option<(Vec<SummaryFamily>, PublishedSection)> {
    let profiles = collect(matrix);
    if profiles.is_empty() {
        return None;
    }
    let by_key: BTreeMap<&str, &Column> =
        matrix.columns.iter().map(|c| (c.key.as_str(), c)).collect();
    let families: Vec<SummaryFamily> = profiles
        .iter()
        .map(|(profile, (cols, _))| {
            let mut releases: Vec<ReleaseColumns> = cols
                .iter()
                .map(|c| ReleaseColumns {
                    release: release_of(c),
                    columns: vec![c.key.clone()],
                    evidence: vec![c.evidence],
                })
                .collect();
            releases.sort_by(|a, b| a.release.cmp(&b.release));
            SummaryFamily {
                id: format!("{SECTION}/{profile}"),
                title: profile.clone(),
                releases,
                known_releases: Vec::new(),
                shared_claims: Vec::new(),
                unread: unrun(&profiles[profile].1),
                unsettled: Vec::new(),
            }
        })
        .collect();
    let rows = ROWS
        .iter()
        .filter_map(|(what, label, title)| {
            let answers: Vec<PublishedAnswer> = profiles
                .iter()
                .filter_map(|(profile, (_, cells))| answer(profile, cells.get(*what)?, &by_key))
                .collect();
            (!answers.is_empty()).then(|| PublishedRow {
                id: format!("{SECTION}.{what}"),
                label: label.to_string(),
                title: Some(title.to_string()),
                uses: Vec::new(),
                answers,
            })
        })
        .collect();
    let section = PublishedSection {
        id: SECTION.to_string(),
        title: String::from("Sandbox profiles: what the raw libc and Auto do under each"),
        rows,
    };
    Some((families, section))
}

/// The rows no column ran under a profile, with why: a profile known only from columns whose
/// whole run was under it (Docker's default seccomp profile) has their `auto` and raw-libc
/// rows and nothing else, since `spawnmatrix probe --sandbox` has no such profile to force a
/// strategy under.
fn unrun(cells: &ProfileCells) -> Vec<Reason> {
    let rows: Vec<String> = ROWS
        .iter()
        .filter(|(what, _, _)| !cells.contains_key(*what))
        .map(|(what, _, _)| format!("{SECTION}.{what}"))
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    vec![Reason {
        rows,
        why: String::from(
            "not run here: the columns under this profile are containers whose whole run was \
             under it, which record only Auto's strategy and the raw libc's cases; \
             `spawnmatrix probe --sandbox` has no such profile to force a strategy under",
        ),
    }]
}

/// A profile's answer for one row: each column's value as a step (release: the column's libc
/// and kernel); the text is the value when every column agrees, else each release's.
fn answer(
    profile: &str,
    cells: &[(String, Cell)],
    by_key: &BTreeMap<&str, &Column>,
) -> Option<PublishedAnswer> {
    let mut history: Vec<Step> = cells
        .iter()
        .filter_map(|(key, cell)| {
            let col = by_key.get(key.as_str())?;
            Some(Step {
                release: release_of(col),
                value: cell.value.clone(),
                evidence: vec![cell.evidence],
                columns: vec![key.clone()],
                disagreement: false,
                documented_from: None,
                began: None,
                states: Vec::new(),
                notes: cell.note.iter().cloned().collect(),
                sources: Vec::new(),
                claims: Vec::new(),
                cites: Vec::new(),
            })
        })
        .collect();
    history.sort_by(|a, b| a.release.cmp(&b.release));
    let first = history.first()?;
    let text = match history.iter().all(|s| s.value == first.value) {
        true => first.value.to_string(),
        false => history
            .iter()
            .map(|s| format!("{}: {}", s.release, s.value))
            .collect::<Vec<_>>()
            .join("; "),
    };
    let mut evidence: Vec<Evidence> = history.iter().flat_map(|s| s.evidence.clone()).collect();
    evidence.sort();
    evidence.dedup();
    let mut notes: Vec<String> = history.iter().flat_map(|s| s.notes.clone()).collect();
    notes.sort();
    notes.dedup();
    let state = match history.last().map(|s| &s.value) {
        Some(Value::Text(_)) => "outcome",
        _ => "unknown",
    };
    Some(PublishedAnswer {
        answer: Answer {
            family: format!("{SECTION}/{profile}"),
            text,
            since: None,
            boundary: None,
            evidence,
            disagreement: false,
            states: Vec::new(),
            notes: Vec::new(),
            sources: Vec::new(),
            through: None,
            unknown_from: None,
            claims: Vec::new(),
            history,
        },
        state: state.to_string(),
        notes,
        sources: Vec::new(),
    })
}
