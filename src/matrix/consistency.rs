//! Contradictions a careful reader of the summary would see, found by a program (issue 20,
//! item 5). [`check`] reads a [`Summary`] (built, or parsed back from `docs/summary.json`)
//! and lists every problem; `spawnmatrix publish` refuses to write a summary with any, and
//! `tests/summary_consistency.rs` shows each check failing on a planted contradiction.

use std::collections::BTreeMap;

use super::boundary::{next_release, Boundary};
use super::model::{Evidence, Value};
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
    /// Two rows of a family resting on the same sources and boundary, one with the
    /// documented evidence letter and one without.
    SameSourcesDifferentEvidence,
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
    let features: Vec<&SummaryRow> = section(s, "features");
    let errors: Vec<&SummaryRow> = section(s, "errors");
    let feature = |row: &str, family: &str| {
        features
            .iter()
            .find(|r| r.id == row)
            .and_then(|r| r.answers.iter().find(|a| a.family == family))
    };
    for row in &errors {
        let uses = uses(row);
        for a in &row.answers {
            for u in &uses {
                let Some(f) = feature(u, &a.family) else {
                    continue;
                };
                error_before_function(row, a, u, f, &mut out);
                unsupported_while_present(row, a, u, f, &mut out);
            }
        }
    }
    for fam in &s.families {
        let has_errors = errors
            .iter()
            .any(|r| r.answers.iter().any(|a| a.family == fam.id));
        if has_errors && feature("functions.posix_spawn", &fam.id).is_none() {
            out.push(problem(
                Check::ErrorsWithoutPosixSpawn,
                &fam.id,
                "functions.posix_spawn",
                "error rows are known, posix_spawn is ?".into(),
            ));
        }
    }
    two_spellings(s, &mut out);
    for row in s.rows() {
        for a in &row.answers {
            exact_but_interval(row, a, &known_releases(s, &a.family), &mut out);
        }
    }
    same_sources_different_evidence(s, &mut out);
    out.sort_by(|a, b| (a.check, &a.family, &a.row).cmp(&(b.check, &b.family, &b.row)));
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

/// The function rows a case row relies on; `posix_spawn` when the summary does not say.
fn uses(row: &SummaryRow) -> Vec<String> {
    match row.uses.is_empty() {
        true => vec![String::from("functions.posix_spawn")],
        false => row.uses.clone(),
    }
}

/// The family's real releases, when its platform.yaml lists them (for "the release after").
fn known_releases(s: &Summary, family: &str) -> Vec<Version> {
    s.family(family)
        .into_iter()
        .flat_map(|f| &f.known_releases)
        .filter_map(|r| Version::parse(r))
        .collect()
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

/// Check 1: the error row's earliest supported value is older than the function's date.
fn error_before_function(
    row: &SummaryRow,
    a: &Answer,
    u: &str,
    f: &Answer,
    out: &mut Vec<Problem>,
) {
    let earliest = a
        .history
        .iter()
        .filter(|s| supported(&s.value))
        .filter_map(|s| exact(&s.release))
        .chain(
            a.boundary
                .as_ref()
                .filter(|_| a.history.last().is_some_and(|s| supported(&s.value)))
                .and_then(|b| exact(b.last())),
        )
        .min();
    let Some(earliest) = earliest else { return };
    let dated = match &f.boundary {
        Some(b) => exact(b.last()),
        None => None,
    };
    match dated {
        Some(d) if earliest < d => out.push(problem(
            Check::ErrorBeforeFunction,
            &a.family,
            &row.id,
            format!(
                "shows a value at {} but {u} is dated {}",
                spell(&earliest),
                f.text
            ),
        )),
        None if f.text == "no" && a.history.last().is_some_and(|s| supported(&s.value)) => out
            .push(problem(
                Check::ErrorBeforeFunction,
                &a.family,
                &row.id,
                format!("shows {} but {u} is absent", a.text),
            )),
        _ => {}
    }
}

fn spell(v: &Version) -> String {
    v.parts()
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// Check 2: `unsupported` as the current answer, while the function is there now.
fn unsupported_while_present(
    row: &SummaryRow,
    a: &Answer,
    u: &str,
    f: &Answer,
    out: &mut Vec<Problem>,
) {
    // `unsupported` is about the extra functions a case needs, not the spawn call itself.
    if matches!(u, "functions.posix_spawn" | "functions.posix_spawnp") {
        return;
    }
    let unsupported = a.through.is_none()
        && a.history.last().map(|s| &s.value) == Some(&Value::Text("unsupported".into()));
    if unsupported && f.boundary.is_some() {
        out.push(problem(
            Check::UnsupportedWhilePresent,
            &a.family,
            &row.id,
            format!("{} while {u} is {}", a.text, f.text),
        ));
    }
}

/// Check 4: every release text of a family (its columns, histories and boundaries) has one
/// spelling per release.
fn two_spellings(s: &Summary, out: &mut Vec<Problem>) {
    let mut seen: BTreeMap<(String, Vec<u64>), (String, String)> = BTreeMap::new();
    let mut note = |family: &str, row: &str, text: &str, out: &mut Vec<Problem>| {
        let Some(v) = exact(text) else { return };
        let mut parts = v.parts().to_vec();
        while parts.len() > 1 && parts.last() == Some(&0) {
            parts.pop();
        }
        let key = (family.to_string(), parts);
        match seen.get(&key) {
            Some((other, _)) if other != text => out.push(problem(
                Check::TwoSpellings,
                family,
                row,
                format!("{text:?} and {other:?} are one release"),
            )),
            Some(_) => {}
            None => {
                seen.insert(key, (text.to_string(), row.to_string()));
            }
        }
    };
    for f in &s.families {
        for r in &f.releases {
            note(&f.id, "releases", &r.release, out);
        }
    }
    for row in s.rows() {
        for a in &row.answers {
            let texts = a
                .history
                .iter()
                .map(|h| h.release.as_str())
                .chain(a.boundary.iter().flat_map(Boundary::releases));
            for t in texts {
                note(&a.family, &row.id, t, out);
            }
        }
    }
}

/// Check 5: an exact boundary must be documented as the first (`after` absent, with a doc
/// source behind it) or sit right after a release known to differ, and no release before it
/// may already show the value.
fn exact_but_interval(row: &SummaryRow, a: &Answer, known: &[Version], out: &mut Vec<Problem>) {
    let Some(Boundary::Exact { release, after }) = &a.boundary else {
        return;
    };
    let Some(b) = exact(release) else { return };
    let current = a.history.last().map(|s| &s.value);
    let fail = |why: String, out: &mut Vec<Problem>| {
        out.push(problem(Check::ExactButInterval, &a.family, &row.id, why))
    };
    let earlier_same = a
        .history
        .iter()
        .filter(|s| Some(&s.value) == current)
        .filter_map(|s| exact(&s.release))
        .find(|v| *v < b);
    if let Some(v) = earlier_same {
        fail(
            format!("printed {release} but {} already shows it", spell(&v)),
            out,
        );
    }
    let previous = a
        .history
        .iter()
        .filter(|s| Some(&s.value) != current)
        .filter_map(|s| exact(&s.release))
        .filter(|v| *v < b)
        .max();
    match (after, previous) {
        (Some(p), _) => {
            if exact(p).is_none_or(|p| next_release(known, &p) != b) {
                fail(
                    format!("printed {release}, but after {p} it is an interval"),
                    out,
                );
            }
        }
        (None, prev) => {
            let documented = a.sources.iter().any(|s| !s.is_empty())
                || a.history.iter().any(|s| s.began.is_some());
            if !documented {
                let why = match prev {
                    Some(p) => format!(
                        "printed {release} without a source, after {} known to differ",
                        spell(&p)
                    ),
                    None => format!("printed {release} without a source"),
                };
                fail(why, out);
            }
        }
    }
}

/// Check 6: within a family, rows whose answers rest on the same sources and the same
/// boundary agree on whether that is documented evidence (`D`). Run and link letters may
/// differ (a probe covers some rows only); the source's own letter may not.
fn same_sources_different_evidence(s: &Summary, out: &mut Vec<Problem>) {
    let doc = |a: &Answer| a.evidence.contains(&Evidence::Doc);
    type Key = (String, Vec<String>, String);
    let mut seen: BTreeMap<Key, (&str, &Answer)> = BTreeMap::new();
    for row in s.rows() {
        for a in &row.answers {
            if a.sources.is_empty() {
                continue;
            }
            let mut sources = a.sources.clone();
            sources.sort();
            let since = a.since.clone().unwrap_or_else(|| a.text.clone());
            let key = (a.family.clone(), sources, since);
            match seen.get(&key) {
                Some((other, b)) if doc(b) != doc(a) => out.push(problem(
                    Check::SameSourcesDifferentEvidence,
                    &a.family,
                    &row.id,
                    format!(
                        "{:?} here, {:?} on {other}, from the same sources",
                        a.evidence, b.evidence
                    ),
                )),
                Some(_) => {}
                None => {
                    seen.insert(key, (&row.id, a));
                }
            }
        }
    }
}
