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

use super::boundary::{Boundary, Bounds};
use super::merge::family_rank;
use super::model::{
    Cell, Column, Evidence, FamilyInfo, Matrix, Row, State, StateKind, Value, IGNORED,
};
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
    /// The family's real release numbers when its platform.yaml lists them (what "the
    /// release after" means for its boundaries).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known_releases: Vec<String>,
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// For a case row: the feature rows it relies on (`functions.posix_spawn`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<String>,
    /// One per family that knows anything about this row, in family order.
    pub answers: Vec<Answer>,
}

/// A family's answer for one row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub family: String,
    /// The answer in a few characters: `2.29`, `13.1–13.2`, `≤2.17`, `no`,
    /// `returned:ENOENT since 2.24`, `ignored ≤5.7`.
    pub text: String,
    /// The boundary as printed (`2.29`, `13.1–14.0`, `≤15`); `None` for `no`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Where the current value began, and which of the three kinds that is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary: Option<Boundary>,
    /// The evidence for the answer: that of the release it is read from.
    pub evidence: Vec<Evidence>,
    /// Some column of a release it rests on disagrees (with another column or a doc claim).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disagreement: bool,
    /// What else holds for the newest release (accepted but ignored, deprecated, known bug,
    /// needs a build-time condition), each with its note and source.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<State>,
    /// The documented notes behind the current value. Not written here: the published
    /// answer (`published::PublishedAnswer`) writes every note behind the answer under this
    /// name, which is what reading `summary.json` back fills in.
    #[serde(default, skip_serializing)]
    pub notes: Vec<String>,
    /// The documented sources behind the current value (`KEY: note (citations)`); as `notes`.
    #[serde(default, skip_serializing)]
    pub sources: Vec<String>,
    /// The current value is known only through this release: a later release has a function
    /// the case uses, so what the case does there is not known (`unsupported through 15`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<String>,
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
    /// Where a documented range giving this value starts (`since`/`from` of the claim): the
    /// first release the claim covers, not where the value began.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documented_from: Option<String>,
    /// Where the documented value began, as the family's claims on the row tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub began: Option<Boundary>,
    /// The documented states over this release.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<State>,
    /// The notes and sources of the cells that give this value (the answer gathers them;
    /// the published answer lists every cell's).
    #[serde(default, skip_serializing)]
    pub notes: Vec<String>,
    #[serde(default, skip_serializing)]
    pub sources: Vec<String>,
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

/// A summary family under construction: id, title, its releases (place, text, columns) and
/// how it spells them.
type FamilyDraft<'m> = (
    String,
    String,
    Vec<(Place, String, Vec<&'m Column>)>,
    Spelling,
);

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

/// Whether a value is the refinement "accepted, ignored" of an accepting `true`.
fn is_ignored(v: &Value) -> bool {
    matches!(v, Value::Text(t) if t == IGNORED)
}

/// Adds `item` unless it is there already.
fn push_new<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// Merges the cells of one release's columns into one step (also the page's full table, so
/// both views read a release the same way). The strongest evidence's value is shown; a
/// documented `ignored` refines an observed `true` (acceptance is all a link or `setflags`
/// sees), and counts as agreeing evidence.
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
    let mut value = best.1.value.clone();
    let refined = pool
        .iter()
        .any(|(_, c)| is_ignored(&c.value) || c.doc.as_ref().is_some_and(|d| is_ignored(&d.value)));
    if refined && value == Value::Bool(true) {
        value = Value::Text(IGNORED.to_string());
    }
    let mut step = Step {
        release: release.to_string(),
        value: value.clone(),
        evidence: Vec::new(),
        columns: cells.iter().map(|(c, _)| c.key.clone()).collect(),
        disagreement: false,
        documented_from: None,
        began: None,
        states: Vec::new(),
        notes: Vec::new(),
        sources: Vec::new(),
    };
    for (_, cell) in &pool {
        if cell.value.agrees_with(&value) {
            step.evidence.push(cell.evidence);
            if cell.evidence == Evidence::Doc {
                step.documented_from = step.documented_from.take().or(cell.since.clone());
                step.began = step.began.take().or(cell.began.clone());
                cell.note
                    .iter()
                    .for_each(|n| push_new(&mut step.notes, n.clone()));
                cell.source
                    .iter()
                    .for_each(|n| push_new(&mut step.sources, n.clone()));
            }
        } else {
            step.disagreement = true;
        }
        match &cell.doc {
            Some(claim) if claim.value.agrees_with(&value) => {
                step.evidence.push(Evidence::Doc);
                step.documented_from = step.documented_from.take().or(claim.from.clone());
                step.began = step.began.take().or(claim.began.clone());
                claim
                    .note
                    .iter()
                    .for_each(|n| push_new(&mut step.notes, n.clone()));
                push_new(&mut step.sources, claim.source.clone());
            }
            Some(_) => step.disagreement = true,
            None => {}
        }
        step.disagreement |= !cell.conflicts.is_empty();
        for state in &cell.states {
            push_new(&mut step.states, state.clone());
        }
    }
    step.evidence.sort();
    step.evidence.dedup();
    Some(step)
}

/// How a family spells its releases: a boundary's release becomes the family's own
/// spelling of the same release (`26` → `26.0` when a column says `26.0`).
struct Spelling {
    known: Vec<(Version, String)>,
    /// The family's real releases (`FamilyInfo::releases`), for "the release after".
    releases: Vec<Version>,
    release_texts: Vec<String>,
}

impl Spelling {
    fn spell(&self, text: &str) -> String {
        let v = Version::parse(text);
        self.known
            .iter()
            .find(|(k, _)| Some(k) == v.as_ref())
            .map_or_else(|| text.to_string(), |(_, t)| t.clone())
    }
}

/// Where the final run of equal values began: what the releases before it show (the newest
/// one with another value is known to differ), tightened by where the documented value
/// began. A documented start the observations contradict is not used, and the answer is
/// marked as disagreeing.
fn boundary(
    exact: &[(&Place, &Step)],
    start: usize,
    spelling: &Spelling,
) -> (Boundary, Vec<Evidence>, bool) {
    let first = exact[start].1;
    let mut observed =
        Bounds::at_most(&first.release).expect("an exact release parses as a version");
    if start > 0 {
        observed = observed.differs_at(&exact[start - 1].1.release, &spelling.releases);
    }
    // The documented start of the run: the earliest step in it that carries one.
    let documented = exact[start..]
        .iter()
        .take_while(|(_, s)| s.value == first.value)
        .find_map(|(_, s)| s.began.as_ref())
        .and_then(|b| bounds_of(b, &spelling.releases));
    let (bounds, evidence, contradicted) = match documented {
        None => (observed, first.evidence.clone(), false),
        Some(doc) => match observed.and(&doc) {
            Some(both) => {
                let earlier = both.high() < observed.high();
                let evidence = match earlier {
                    true => vec![Evidence::Doc],
                    false => first.evidence.clone(),
                };
                (both, evidence, false)
            }
            None => (observed, first.evidence.clone(), true),
        },
    };
    let b = bounds.boundary().respelled(&|t| spelling.spell(t));
    (b, evidence, contradicted)
}

/// A documented boundary back as bounds, to be combined with what the releases show.
fn bounds_of(b: &Boundary, releases: &[Version]) -> Option<Bounds> {
    match b {
        Boundary::Exact {
            release,
            after: None,
        } => Bounds::documented(release),
        Boundary::Exact {
            release,
            after: Some(a),
        }
        | Boundary::Interval {
            after: Some(a),
            last: release,
            ..
        } => Some(Bounds::at_most(release)?.differs_at(a, releases)),
        Boundary::Interval {
            after: None,
            first,
            last,
        } => Some(Bounds::at_most(last)?.not_before(first)),
        Boundary::AtMost { release } => Bounds::at_most(release),
    }
}

/// `yes`/`no`/the outcome, plus where a release known only as a bound came from.
pub(crate) fn bare(value: &Value, release: &str) -> String {
    let v = match value {
        Value::Bool(true) => String::from("yes"),
        other => other.to_string(),
    };
    match release {
        "unknown" => format!("{v} (release?)"),
        r => format!("{v} ({r})"),
    }
}

/// The states of the answer: the newest release's documented states, and "accepted,
/// ignored" when that is the value, with the note and source of the claim that says so.
fn answer_states(newest: &Step, since: Option<&Boundary>) -> Vec<State> {
    let mut states = newest.states.clone();
    if is_ignored(&newest.value) {
        states.insert(
            0,
            State {
                state: StateKind::Ignored,
                began: since.cloned(),
                ends: None,
                condition: None,
                note: newest.notes.first().cloned(),
                source: newest.sources.join("; "),
            },
        );
    }
    states
}

/// Reads the answer off the history: the value of the newest exact release and where its
/// final run of equal values began.
fn answer(family: &str, history: Vec<(Place, Step)>, spelling: &Spelling) -> Option<Answer> {
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
            boundary: None,
            evidence: newest.evidence.clone(),
            disagreement: newest.disagreement,
            states: answer_states(newest, None),
            notes: newest.notes.clone(),
            sources: newest.sources.clone(),
            through: None,
            history: history.into_iter().map(|(_, s)| s).collect(),
        });
    };
    let start = exact
        .iter()
        .rposition(|(_, s)| s.value != newest.value)
        .map_or(0, |i| i + 1);
    let (boundary, boundary_evidence, contradicted) = boundary(&exact, start, spelling);
    let first_place = exact[start].0;
    let run: Vec<&Step> = history
        .iter()
        .filter(|(p, s)| p >= first_place && s.value == newest.value)
        .map(|(_, s)| s)
        .collect();
    // Evidence for the value itself: every release from the boundary on that shows it.
    let mut value_evidence: Vec<Evidence> = run
        .iter()
        .flat_map(|s| s.evidence.iter().copied())
        .collect();
    value_evidence.sort();
    value_evidence.dedup();
    let (mut notes, mut sources) = (Vec::new(), Vec::new());
    for s in &run {
        s.notes.iter().for_each(|n| push_new(&mut notes, n.clone()));
        s.sources
            .iter()
            .for_each(|n| push_new(&mut sources, n.clone()));
    }
    // A disagreement counts from the release before the boundary on: that release decides
    // where the boundary lies (a contradicted "no" there moves it).
    let decided_from = match start {
        0 => first_place,
        _ => exact[start - 1].0,
    };
    let disagreement = contradicted
        || history
            .iter()
            .filter(|(p, _)| p >= decided_from)
            .any(|(_, s)| s.disagreement);
    let since = boundary.text();
    let (text, evidence, boundary) = match &newest.value {
        Value::Bool(true) => (since, boundary_evidence, Some(boundary)),
        Value::Bool(false) => (String::from("no"), newest.evidence.clone(), None),
        v if is_ignored(v) => (format!("{v} {since}"), value_evidence, Some(boundary)),
        other => (
            format!("{other} since {since}"),
            value_evidence,
            Some(boundary),
        ),
    };
    Some(Answer {
        family: family.to_string(),
        text,
        since: boundary.as_ref().map(Boundary::text),
        states: answer_states(newest, boundary.as_ref()),
        boundary,
        evidence,
        disagreement,
        notes,
        sources,
        through: None,
        history: history.into_iter().map(|(_, s)| s).collect(),
    })
}

/// The newest exact release of a history.
fn newest_exact(history: &[Step]) -> Option<Version> {
    history
        .iter()
        .rev()
        .find_map(|s| match Release::parse(&s.release) {
            Some(Release::Exact(v)) => Some(v),
            _ => None,
        })
}

/// An error row's `unsupported` is only as new as its newest release: when a function the
/// case uses is present in a later release of the family, the case is no longer unsupported
/// there, and what it does is not known. The answer then says `unsupported through R`.
fn mark_stale_unsupported(a: &mut Answer, uses: &[String], features: &Section) {
    let current = a.history.last().map(|s| &s.value);
    if current != Some(&Value::Text(String::from("unsupported"))) {
        return;
    }
    let Some(known) = newest_exact(&a.history) else {
        return;
    };
    // The spawn call itself is not what makes a case unsupported.
    let extra = uses.iter().filter(|u| {
        !matches!(
            u.as_str(),
            "functions.posix_spawn" | "functions.posix_spawnp"
        )
    });
    let later = extra.into_iter().any(|u| {
        features
            .rows
            .iter()
            .filter(|r| r.id == *u)
            .flat_map(|r| &r.answers)
            .filter(|f| f.family == a.family && f.boundary.is_some())
            .any(|f| newest_exact(&f.history).is_some_and(|v| v > known))
    });
    if let (true, Some(last)) = (
        later,
        a.history
            .iter()
            .rev()
            .find(|s| Place::of(Some(&s.release)).is_exact()),
    ) {
        a.text = format!("unsupported through {}", last.release);
        a.through = Some(last.release.clone());
    }
}

/// A case's value cannot begin before the functions it calls exist: the earliest a used
/// function can have begun raises the case's boundary from below (FreeBSD `exec-enoent`
/// known at 14.0, `posix_spawn` since 8.0: `8.0–14.0`; glibc `chdir-enoent` known at 2.29,
/// `addchdir_np` since 2.29: exactly 2.29).
fn bound_by_functions(a: &mut Answer, uses: &[String], features: &Section) {
    let Some(b) = a.boundary.clone() else { return };
    if a.through.is_some() || a.history.last().is_some_and(|s| is_not_run(&s.value)) {
        return;
    }
    let Some(mut bounds) = bounds_of(&b, &[]) else {
        return;
    };
    for f in features
        .rows
        .iter()
        .filter(|r| uses.contains(&r.id))
        .flat_map(|r| &r.answers)
        .filter(|f| f.family == a.family)
    {
        if let Some(earliest) = f.boundary.as_ref().and_then(Boundary::earliest) {
            bounds = bounds.not_before(earliest);
        }
    }
    let tightened = bounds.boundary();
    if tightened == b || Version::parse(tightened.last()) != Version::parse(b.last()) {
        return;
    }
    let since = tightened.text();
    if let Some(old) = a.since.as_deref() {
        a.text = a
            .text
            .replacen(&format!("since {old}"), &format!("since {since}"), 1);
    }
    a.since = Some(since);
    a.boundary = Some(tightened);
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
        .map(|((_, family, id), (title, releases))| {
            let releases: Vec<(Place, String, Vec<&Column>)> = releases
                .into_iter()
                .map(|(place, (text, mut cols))| {
                    cols.sort_by(|a, b| (a.evidence, &a.key).cmp(&(b.evidence, &b.key)));
                    (place, text, cols)
                })
                .collect();
            let spelling = Spelling {
                known: releases
                    .iter()
                    .filter_map(|(place, text, _)| match place {
                        Place::Known(v, false) => Some((v.clone(), text.clone())),
                        _ => None,
                    })
                    .collect(),
                releases: matrix
                    .families
                    .iter()
                    .filter(|f| Some(&f.id) == family.as_ref())
                    .flat_map(|f| f.releases.iter().filter_map(|r| Version::parse(r)))
                    .collect(),
                release_texts: matrix
                    .families
                    .iter()
                    .filter(|f| Some(&f.id) == family.as_ref())
                    .flat_map(|f| f.releases.clone())
                    .collect(),
            };
            (id, title, releases, spelling)
        })
        .collect();

    let row_of = |row: &Row| SummaryRow {
        id: row.id.clone(),
        label: label(row),
        title: row.title.clone(),
        uses: row.uses.clone(),
        answers: families
            .iter()
            .filter_map(|(id, _, releases, spelling)| {
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
                answer(id, history, spelling)
            })
            .collect(),
    };
    let section = |id: &str, title: &str, pick: &dyn Fn(&Row) -> bool| Section {
        id: id.to_string(),
        title: title.to_string(),
        rows: matrix.rows.iter().filter(|r| pick(r)).map(row_of).collect(),
    };
    let features = section(
        "features",
        "Functions and flags: since which release",
        &|r| r.group == "functions" || r.group == "flags",
    );
    let mut errors = section(
        "errors",
        "How errors are reported (raw libc, documented cases)",
        &is_error_row,
    );
    for row in &mut errors.rows {
        for a in &mut row.answers {
            mark_stale_unsupported(a, &row.uses, &features);
            bound_by_functions(a, &row.uses, &features);
        }
    }
    let sections = vec![features, errors];
    Summary {
        families: families
            .into_iter()
            .map(|(id, title, releases, spelling)| SummaryFamily {
                id,
                title,
                known_releases: spelling.release_texts.clone(),
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
