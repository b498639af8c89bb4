//! Contradictions a careful reader of the summary would see, found by a program (issues 20
//! and 29). [`check`] reads a [`Summary`] (built, or parsed back from `docs/summary.json`)
//! and lists every problem; `spawnmatrix publish` refuses to write a summary with any, and
//! `tests/summary_consistency.rs` shows each check failing on a planted contradiction.
//!
//! - `errors`: error rows against the function rows their case uses.
//! - `boundaries`: boundaries against the history and the text they are printed as.
//! - `claims`: rows that rest on one claim or one source, against each other.
//! - `notes`: notes against the cells of their family.
//! - `unknown`: `?` cells against the reasons their family states.
//! - `unsettled`: ranged first releases against the reasons their family states.
//! - `citations`: documented function and flag cells against the sources they cite.

mod boundaries;
mod citations;
mod claims;
mod errors;
mod notes;
mod unknown;
mod unsettled;

use super::model::Value;
use super::summary::{Answer, Summary, SummaryRow};
use super::version::{Release, Version};

/// Which consistency rule a problem breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Check {
    /// An error row shows a value at a release before its family dates the function the
    /// case uses (`posix_spawn`, `posix_spawnp`, a chdir action).
    ErrorBeforeFunction,
    /// An error row is `unsupported` while a function the case uses is present in the
    /// newest release.
    UnsupportedWhilePresent,
    /// A family's error rows are known while its `posix_spawn` row is `?`.
    ErrorsWithoutPosixSpawn,
    /// One release spelled two ways in a family (`26` and `26.0`).
    TwoSpellings,
    /// A boundary printed exact that the evidence makes an interval.
    ExactButInterval,
    /// Two rows of a family citing one source, one with the documented evidence letter and
    /// one without.
    SameSourcesDifferentEvidence,
    /// Rows covered by one claim (a header block, an availability macro, an API-level gate,
    /// a release note) with different states, values or letters.
    SharedClaimDisagrees,
    /// An error row shows a value as current for a release at which a row its case uses
    /// changed, without evidence there.
    StaleValueAsCurrent,
    /// A boundary or `since` that disagrees with the printed text or the cell's history.
    BoundaryDisagrees,
    /// A note naming an errno for a call that another cell of the family answers otherwise.
    NoteContradictsCell,
    /// `≤` at a family's first release, or "unsupported since ≤" for a case whose function
    /// no release had: words that read as if something held before.
    MisleadingWords,
    /// A cell with no answer (`?`) whose family does not say why nothing is known.
    UnknownWithoutReason,
    /// A family's reason for `?` naming a row it answers.
    UnreadButAnswered,
    /// A first release printed as a range or `≤` whose family does not say why its history
    /// cannot settle it.
    RangeWithoutReason,
    /// A family's reason for a range naming a row whose first release is exact (or absent).
    UnsettledButExact,
    /// A documented function or flag cell none of whose sources names its row (or a group
    /// that includes it, or, for `no`, a complete list it is missing from).
    CitationMissesRow,
}

/// One contradiction, with where it is and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub check: Check,
    pub family: String,
    pub row: String,
    pub detail: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?}: {} {}: {}",
            self.check, self.family, self.row, self.detail
        )
    }
}

/// Every problem of `s`, in check order.
pub fn check(s: &Summary) -> Vec<Problem> {
    let mut out = Vec::new();
    errors::check(s, &mut out);
    boundaries::check(s, &mut out);
    claims::check(s, &mut out);
    notes::check(s, &mut out);
    unknown::check(s, &mut out);
    unsettled::check(s, &mut out);
    citations::check(s, &mut out);
    out.sort_by(|a, b| (a.check, &a.family, &a.row).cmp(&(b.check, &b.family, &b.row)));
    out.dedup();
    out
}

fn problem(check: Check, family: &str, row: &str, detail: String) -> Problem {
    Problem {
        check,
        family: family.to_string(),
        row: row.to_string(),
        detail,
    }
}

fn section<'s>(s: &'s Summary, id: &str) -> Vec<&'s SummaryRow> {
    s.sections
        .iter()
        .filter(|sec| sec.id == id)
        .flat_map(|sec| &sec.rows)
        .collect()
}

/// The family's answer on the feature row `row`.
fn feature<'s>(s: &'s Summary, row: &str, family: &str) -> Option<&'s Answer> {
    section(s, "features")
        .into_iter()
        .find(|r| r.id == row)
        .and_then(|r| r.answers.iter().find(|a| a.family == family))
}

/// Whether a value says the case ran (not `unsupported`, `skipped:`, or absent).
fn supported(v: &Value) -> bool {
    match v {
        Value::Text(t) => t != "unsupported" && !t.starts_with("skipped:"),
        Value::Bool(b) => *b,
        Value::Number(_) => true,
    }
}

fn exact(release: &str) -> Option<Version> {
    match Release::parse(release) {
        Some(Release::Exact(v)) => Some(v),
        _ => None,
    }
}

fn spell(v: &Version) -> String {
    v.to_string()
}

/// The value of the newest exact release: what the answer says holds today.
fn current(a: &Answer) -> Option<&Value> {
    a.history
        .iter()
        .rev()
        .find(|s| exact(&s.release).is_some())
        .map(|s| &s.value)
}
