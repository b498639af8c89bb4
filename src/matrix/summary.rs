//! The summary view: feature × platform family → since which release, with its evidence, and
//! how each family reports errors (the caniuse / MDN compat-table shape).
//!
//! Computed from a merged [`Matrix`] only. Columns of one release (a link column, a doc column
//! and a run column of glibc 2.29) become one [`Step`] that lists all their evidence; the value
//! shown is the strongest evidence's (run > link > doc). Releases sort numerically inside a
//! family; a release known only as a lower bound (`>=1.2.3`, musl) or not at all sorts after the
//! exact ones and never decides a "since" boundary.
//!
//! Rows: every `functions.*` and `flags.*` row (features), then every `cases.<id>.libc` row that
//! some platform.yaml documents (error reporting: `returned:ENOENT`, `child-exit:127`,
//! `add:EBADF`, ...). Nothing is hard-coded per platform: a claim added to a platform.yaml shows
//! up here on the next merge.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::merge::family_rank;
use super::model::{Cell, Column, Evidence, FamilyInfo, Matrix, Row, Value};
use super::version::{Release, Version};

/// The whole summary: families (with their releases) and the rows, in display order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub families: Vec<SummaryFamily>,
    pub sections: Vec<Section>,
}

/// One summary column: a platform family and its releases, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryFamily {
    /// `linux-glibc`, `macos`; `<family>/<os>` for an OS a family matches besides its own.
    pub id: String,
    pub title: String,
    pub releases: Vec<ReleaseColumns>,
}

/// One release of a family and the matrix columns that stand for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReleaseColumns {
    /// As the columns give it (`2.29`, `>=1.2.3`), or `unknown`.
    pub release: String,
    /// The matrix column keys, strongest evidence first.
    pub columns: Vec<String>,
    /// Each evidence level at least one of the columns has, strongest first.
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// `features` or `errors`.
    pub id: String,
    pub title: String,
    pub rows: Vec<SummaryRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// The matrix row id (`functions.posix_spawn_file_actions_addchdir_np`).
    pub id: String,
    /// Short label (`posix_spawn_file_actions_addchdir_np`, `exec-enoent`).
    pub label: String,
    /// What a case row checks (its title).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// One per family that knows anything about this row, in family order.
    pub answers: Vec<Answer>,
}

/// A family's answer for one row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub family: String,
    /// The answer in a few characters: `2.29`, `<=2.17`, `no`, `returned:ENOENT since 2.24`.
    pub text: String,
    /// The release the answer starts at (`since`); `None` for `no` or when no exact release is
    /// known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// `since` is only an upper bound: the oldest release known already has it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub since_is_upper_bound: bool,
    /// The evidence for the answer: that of the release it is read from.
    pub evidence: Vec<Evidence>,
    /// Some column of a release it rests on disagrees (with another column or a doc claim).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disagreement: bool,
    /// Every release with a value, oldest first: the drill-down.
    pub history: Vec<Step>,
}

/// One release's merged cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub release: String,
    pub value: Value,
    /// All evidence for this value at this release, strongest first (a `doc` claim attached
    /// to a link cell counts).
    pub evidence: Vec<Evidence>,
    /// The columns it was read from (not serialized: the family's release lists them).
    #[serde(skip_serializing, default)]
    pub columns: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disagreement: bool,
    /// Where a documented range giving this value starts (`since`/`from` of the claim).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documented_from: Option<String>,
}

/// A release's place in its family: exact releases by number, a lower bound after the exact
/// release of the same number, unknown last.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Known(Version, bool),
    Unknown,
}

impl Place {
    fn of(text: Option<&str>) -> Place {
        match text.and_then(Release::parse) {
            Some(Release::Exact(v)) => Place::Known(v, false),
            Some(Release::AtLeast(v)) => Place::Known(v, true),
            None => Place::Unknown,
        }
    }

    fn is_exact(&self) -> bool {
        matches!(self, Place::Known(_, false))
    }
}

/// Releases under construction: family id -> place -> (shown text, column keys).
type Releases<'m> = BTreeMap<Place, (String, Vec<&'m Column>)>;

/// A summary family under construction: id, title, and its releases (place, text, columns).
type FamilyDraft<'m> = (String, String, Vec<(Place, String, Vec<&'m Column>)>);

/// The summary family of a column: its `targets/` family, split by OS when the family also
/// matches other OSes, or `<os>-<libc>` for a platform no family claims.
fn family_of(column: &Column, families: &[FamilyInfo]) -> (String, String, Option<String>) {
    let p = &column.platform;
    match column
        .family
        .as_deref()
        .and_then(|f| families.iter().find(|i| i.id == f))
    {
        Some(info) if info.os == p.os => (
            info.id.clone(),
            info.title.clone(),
            Some(info.version_of.clone()),
        ),
        Some(info) => (
            format!("{}/{}", info.id, p.os),
            p.os.clone(),
            Some(info.version_of.clone()),
        ),
        None => {
            let id = column
                .family
                .clone()
                .unwrap_or_else(|| format!("{}-{}", p.os, p.libc.name));
            (id.clone(), id, None)
        }
    }
}

/// The release text of a column: the version its family numbers releases by.
fn release_text<'c>(column: &'c Column, version_of: Option<&str>) -> Option<&'c str> {
    let p = &column.platform;
    match version_of {
        Some("os") => p.os_version.as_deref(),
        Some(_) => p.libc.version.as_deref(),
        None => p.libc.version.as_deref().or(p.os_version.as_deref()),
    }
}

/// The short row label: the name after the group (`posix_spawn`, `POSIX_SPAWN_SETSID`) or the
/// case id.
fn label(row: &Row) -> String {
    let rest = row.id.split_once('.').map_or(row.id.as_str(), |(_, r)| r);
    match row.id.starts_with("cases.") {
        true => rest
            .rsplit_once('.')
            .map_or(rest, |(case, _)| case)
            .to_string(),
        false => rest.to_string(),
    }
}

/// Whether a case row belongs to the error-reporting section: the raw libc's outcome, and
/// documented for at least one platform.
fn is_error_row(row: &Row) -> bool {
    row.id.starts_with("cases.")
        && row.id.ends_with(".libc")
        && row
            .cells
            .values()
            .any(|c| c.evidence == Evidence::Doc || c.doc.is_some())
}

/// Whether a value says nothing about the platform (the case could not run here).
fn is_not_run(v: &Value) -> bool {
    matches!(v, Value::Text(t) if t == "unsupported" || t.starts_with("skipped:"))
}

/// Merges the cells of one release's columns into one step (also the page's full table, so
/// both views read a release the same way).
pub(crate) fn step(release: &str, cells: &[(&Column, &Cell)]) -> Option<Step> {
    let informative: Vec<&(&Column, &Cell)> = cells
        .iter()
        .filter(|(_, c)| !is_not_run(&c.value))
        .collect();
    let pool: Vec<&(&Column, &Cell)> = match informative.is_empty() {
        true => cells.iter().collect(),
        false => informative,
    };
    let best = pool.iter().min_by_key(|(_, c)| c.evidence)?;
    let value = best.1.value.clone();
    let mut evidence: Vec<Evidence> = Vec::new();
    let mut disagreement = false;
    let mut documented_from = None;
    for (_, cell) in &pool {
        if cell.value == value {
            evidence.push(cell.evidence);
            if cell.evidence == Evidence::Doc {
                documented_from = documented_from.or_else(|| cell.since.clone());
            }
        } else {
            disagreement = true;
        }
        match &cell.doc {
            Some(claim) if claim.value == value => {
                evidence.push(Evidence::Doc);
                documented_from = documented_from.or_else(|| claim.from.clone());
            }
            Some(_) => disagreement = true,
            None => {}
        }
        disagreement |= !cell.conflicts.is_empty();
    }
    evidence.sort();
    evidence.dedup();
    Some(Step {
        release: release.to_string(),
        value,
        evidence,
        columns: cells.iter().map(|(c, _)| c.key.clone()).collect(),
        disagreement,
        documented_from,
    })
}

/// Where a run of equal values starts: the first release that shows it, or the documented
/// start of its range when that lies between the last release without it and that release
/// (glibc 2.34 no, 2.36 yes, documented since 2.35: since 2.35).
fn boundary(exact: &[(&Place, &Step)], start: usize) -> (String, bool, Vec<Evidence>) {
    let (place, first) = exact[start];
    let documented = first
        .documented_from
        .as_deref()
        .and_then(|t| Some((t, Version::parse(t)?)))
        .filter(|(_, v)| {
            let after_previous =
                start == 0 || matches!(exact[start - 1].0, Place::Known(p, _) if p < v);
            after_previous && matches!(place, Place::Known(f, _) if v <= f)
        });
    match documented {
        Some((text, v)) if !matches!(place, Place::Known(f, _) if *f == v) => {
            (text.to_string(), false, vec![Evidence::Doc])
        }
        Some(_) => (first.release.clone(), false, first.evidence.clone()),
        None => (first.release.clone(), start == 0, first.evidence.clone()),
    }
}

/// `yes`/`no`/the outcome, plus where a release known only as a bound came from.
fn bare(value: &Value, release: &str) -> String {
    let v = match value {
        Value::Bool(true) => String::from("yes"),
        other => other.to_string(),
    };
    match release {
        "unknown" => format!("{v} (release?)"),
        r => format!("{v} ({r})"),
    }
}

/// Reads the answer off the history: the value of the newest exact release and the release
/// its final run of equal values starts at.
fn answer(family: &str, history: Vec<(Place, Step)>) -> Option<Answer> {
    let exact: Vec<(&Place, &Step)> = history
        .iter()
        .filter(|(p, _)| p.is_exact())
        .map(|(p, s)| (p, s))
        .collect();
    let Some(&(_, newest)) = exact.last() else {
        // Only lower bounds or unknown releases: say what the newest of them shows.
        let (_, newest) = history.last()?;
        return Some(Answer {
            family: family.to_string(),
            text: bare(&newest.value, &newest.release),
            since: None,
            since_is_upper_bound: false,
            evidence: newest.evidence.clone(),
            disagreement: newest.disagreement,
            history: history.into_iter().map(|(_, s)| s).collect(),
        });
    };
    let start = exact
        .iter()
        .rposition(|(_, s)| s.value != newest.value)
        .map_or(0, |i| i + 1);
    let (since, upper_bound, boundary_evidence) = boundary(&exact, start);
    let first_place = exact[start].0;
    // Evidence for the value itself: every release from the boundary on that shows it.
    let mut value_evidence: Vec<Evidence> = history
        .iter()
        .filter(|(p, s)| p >= first_place && s.value == newest.value)
        .flat_map(|(_, s)| s.evidence.iter().copied())
        .collect();
    value_evidence.sort();
    value_evidence.dedup();
    // A disagreement counts from the release before the boundary on: that release decides
    // where the boundary lies (a contradicted "no" there moves it).
    let decided_from = match start {
        0 => first_place,
        _ => exact[start - 1].0,
    };
    let disagreement = history
        .iter()
        .filter(|(p, _)| p >= decided_from)
        .any(|(_, s)| s.disagreement);
    let at = match upper_bound {
        true => format!("<={since}"),
        false => since.clone(),
    };
    let (text, since, evidence) = match &newest.value {
        Value::Bool(true) => (at, Some(since), boundary_evidence),
        Value::Bool(false) => (String::from("no"), None, newest.evidence.clone()),
        other if upper_bound => (other.to_string(), None, value_evidence),
        other => (
            format!("{other} since {since}"),
            Some(since),
            value_evidence,
        ),
    };
    Some(Answer {
        family: family.to_string(),
        text,
        since_is_upper_bound: upper_bound && since.is_some() && newest.value == Value::Bool(true),
        since,
        evidence,
        disagreement,
        history: history.into_iter().map(|(_, s)| s).collect(),
    })
}

/// Builds the summary of `matrix`.
pub fn build(matrix: &Matrix) -> Summary {
    // family id -> (title, releases)
    let mut grouped: BTreeMap<(usize, Option<String>, String), (String, Releases)> =
        BTreeMap::new();
    for column in &matrix.columns {
        let (id, title, version_of) = family_of(column, &matrix.families);
        let text = release_text(column, version_of.as_deref());
        let place = Place::of(text);
        let rank = family_rank(column.family.as_deref());
        let (_, releases) = grouped
            .entry((rank.0, rank.1, id))
            .or_insert_with(|| (title, BTreeMap::new()));
        let entry = releases
            .entry(place)
            .or_insert_with(|| (String::from(text.unwrap_or("unknown")), Vec::new()));
        // `26.0` over `26`: the longer spelling of the same release says more.
        if let Some(t) = text.filter(|t| t.len() > entry.0.len()) {
            entry.0 = t.to_string();
        }
        entry.1.push(column);
    }
    let families: Vec<FamilyDraft> = grouped
        .into_iter()
        .map(|((_, _, id), (title, releases))| {
            let releases = releases
                .into_iter()
                .map(|(place, (text, mut cols))| {
                    cols.sort_by(|a, b| (a.evidence, &a.key).cmp(&(b.evidence, &b.key)));
                    (place, text, cols)
                })
                .collect();
            (id, title, releases)
        })
        .collect();

    let row_of = |row: &Row| SummaryRow {
        id: row.id.clone(),
        label: label(row),
        title: row.title.clone(),
        answers: families
            .iter()
            .filter_map(|(id, _, releases)| {
                let history: Vec<(Place, Step)> = releases
                    .iter()
                    .filter_map(|(place, text, cols)| {
                        let cells: Vec<(&Column, &Cell)> = cols
                            .iter()
                            .filter_map(|c| Some((*c, row.cells.get(&c.key)?)))
                            .collect();
                        Some((place.clone(), step(text, &cells)?))
                    })
                    .collect();
                answer(id, history)
            })
            .collect(),
    };
    let section = |id: &str, title: &str, pick: &dyn Fn(&Row) -> bool| Section {
        id: id.to_string(),
        title: title.to_string(),
        rows: matrix.rows.iter().filter(|r| pick(r)).map(row_of).collect(),
    };
    let sections = vec![
        section(
            "features",
            "Functions and flags: since which release",
            &|r| r.group == "functions" || r.group == "flags",
        ),
        section(
            "errors",
            "How errors are reported (raw libc, documented cases)",
            &is_error_row,
        ),
    ];
    Summary {
        families: families
            .into_iter()
            .map(|(id, title, releases)| SummaryFamily {
                id,
                title,
                releases: releases
                    .into_iter()
                    .map(|(_, release, cols)| {
                        let mut evidence: Vec<Evidence> = cols.iter().map(|c| c.evidence).collect();
                        evidence.dedup();
                        ReleaseColumns {
                            release,
                            columns: cols.iter().map(|c| c.key.clone()).collect(),
                            evidence,
                        }
                    })
                    .collect(),
            })
            .collect(),
        sections,
    }
}

impl Summary {
    /// Every row, features first.
    pub fn rows(&self) -> impl Iterator<Item = &SummaryRow> {
        self.sections.iter().flat_map(|s| &s.rows)
    }

    pub fn family(&self, id: &str) -> Option<&SummaryFamily> {
        self.families.iter().find(|f| f.id == id)
    }
}
