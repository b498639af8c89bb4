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
    Cell, Column, Evidence, FamilyInfo, Matrix, Reason, Row, SharedClaim, State, StateKind, Value,
    IGNORED,
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
    /// The claims of the family's platform.yaml that state one fact for several rows, with
    /// the rows each covers (what the consistency check holds their answers to).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_claims: Vec<SharedClaim>,
    /// Rows the family has no answer for because no source can be read from here, with why
    /// (stated once in its platform.yaml; every such `?` cell prints it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<Reason>,
    /// Rows whose first release the family's history cannot settle, with why (stated once in
    /// its platform.yaml; every such interval cell prints it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsettled: Vec<Reason>,
}

impl SummaryFamily {
    /// Why the family has no answer for `row`, when its platform.yaml says.
    pub fn unread_why(&self, row: &str) -> Option<&str> {
        why_for(&self.unread, row)
    }

    /// Why the family's first release for `row` stays an interval, when its platform.yaml
    /// says.
    pub fn unsettled_why(&self, row: &str) -> Option<&str> {
        why_for(&self.unsettled, row)
    }
}

fn why_for<'r>(reasons: &'r [Reason], row: &str) -> Option<&'r str> {
    reasons
        .iter()
        .find(|u| u.rows.iter().any(|r| r == row))
        .map(|u| u.why.as_str())
}

/// The id of the published Linux kernel family (`published::kernel`).
pub const KERNEL_FAMILY: &str = "linux-kernel";

/// Whether the published table has a cell for `family` on `row`: the kernel family answers
/// only `kernel.*` rows and each `sandbox/<profile>` only `sandbox.*` rows, and only they do
/// (the published kernel and sandbox sections); a cell with no answer prints `?`.
pub fn has_cell(family: &str, row: &str) -> bool {
    let kind = |id: &str| match id {
        KERNEL_FAMILY => 1,
        id if id.starts_with("kernel.") => 1,
        id if id.starts_with("sandbox/") || id.starts_with("sandbox.") => 2,
        _ => 0,
    };
    kind(family) == kind(row)
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
    /// The current value is known only through this release: a later release adds or changes
    /// a function the case uses, and the row has no evidence there (`unsupported through 15`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<String>,
    /// With `through`: the release where that function changed, from which the answer is
    /// not known (`?`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown_from: Option<String>,
    /// The `id`s of the platform.yaml claims behind the current value that state one fact
    /// for several rows (their siblings must answer alike).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<String>,
    /// Every release with a value, oldest first: the drill-down.
    pub history: Vec<Step>,
}

impl Answer {
    /// The first release when it is a range or `≤` rather than one release: what the
    /// family's `unsettled` says why of.
    pub fn range(&self) -> Option<&Boundary> {
        self.boundary.as_ref().filter(|b| !b.is_exact())
    }
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
    /// The ids of the shared claims behind this value (see [`Answer::claims`]).
    #[serde(default, skip_serializing)]
    pub claims: Vec<String>,
    /// The keys of the documented sources behind this value at this release (`GL-NEWS-2.29`):
    /// which source each release of the drill-down rests on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cites: Vec<String>,
}

/// The key of a source as the cells give it (`KEY: note (citations)`).
pub fn source_key(source: &str) -> &str {
    source.split_once(": ").map_or(source, |(k, _)| k)
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
        claims: Vec::new(),
        cites: Vec::new(),
    };
    for (_, cell) in &pool {
        if cell.value.agrees_with(&value) {
            step.evidence.push(cell.evidence);
            if cell.evidence == Evidence::Doc {
                step.documented_from = step.documented_from.take().or(cell.since.clone());
                step.began = step.began.take().or(cell.began.clone());
                cell.claim
                    .iter()
                    .for_each(|c| push_new(&mut step.claims, c.clone()));
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
                    .claim
                    .iter()
                    .for_each(|c| push_new(&mut step.claims, c.clone()));
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
    step.cites = step
        .sources
        .iter()
        .map(|s| source_key(s).to_string())
        .collect();
    step.cites.sort();
    step.cites.dedup();
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
            floor: None,
        } => Bounds::documented(release),
        Boundary::Exact {
            release,
            after: Some(a),
            ..
        }
        | Boundary::Interval {
            after: Some(a),
            last: release,
            ..
        } => Some(Bounds::at_most(release)?.differs_at(a, releases)),
        Boundary::Exact {
            release,
            after: None,
            floor: Some(row),
        } => Some(Bounds::at_most(release)?.not_before_row(release, row)),
        Boundary::Interval {
            after: None,
            first,
            last,
            floor,
        } => {
            let b = Bounds::at_most(last)?;
            Some(match floor {
                Some(row) => b.not_before_row(first, row),
                None => b.not_before(first),
            })
        }
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
                errno: None,
                symbol: None,
                note: newest.notes.first().cloned(),
                source: newest.sources.join("; "),
                claim: None,
                text: String::new(),
            }
            .with_text(),
        );
    }
    states
}

/// Reads the answer off the history: the value of the newest exact release and where its
/// final run of equal values began. The text is written by [`compose`] once every pass over
/// the summary has had its say.
fn answer(family: &str, history: Vec<(Place, Step)>, spelling: &Spelling) -> Option<Answer> {
    let exact: Vec<(&Place, &Step)> = history
        .iter()
        .filter(|(p, _)| p.is_exact())
        .map(|(p, s)| (p, s))
        .collect();
    let Some(&(_, newest)) = exact.last() else {
        // Only lower bounds or unknown releases: say what the newest of them shows, with
        // every evidence for that value, as for any answer.
        let (_, newest) = history.last()?;
        let mut evidence: Vec<Evidence> = history
            .iter()
            .rev()
            .take_while(|(_, s)| s.value == newest.value)
            .flat_map(|(_, s)| s.evidence.iter().copied())
            .collect();
        evidence.sort();
        evidence.dedup();
        return Some(Answer {
            family: family.to_string(),
            text: bare(&newest.value, &newest.release),
            since: None,
            boundary: None,
            evidence,
            disagreement: newest.disagreement,
            states: answer_states(newest, None),
            notes: newest.notes.clone(),
            sources: newest.sources.clone(),
            through: None,
            unknown_from: None,
            claims: newest.claims.clone(),
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
    // The letters, the same way for every value: every evidence for the value over its
    // final run, and what dates its start (a documented first release older than every
    // release read).
    let mut evidence: Vec<Evidence> = run
        .iter()
        .flat_map(|s| s.evidence.iter().copied())
        .chain(match newest.value {
            Value::Bool(false) => Vec::new(),
            _ => boundary_evidence,
        })
        .collect();
    evidence.sort();
    evidence.dedup();
    let (mut notes, mut sources, mut claims) = (Vec::new(), Vec::new(), Vec::new());
    for s in &run {
        s.notes.iter().for_each(|n| push_new(&mut notes, n.clone()));
        s.sources
            .iter()
            .for_each(|n| push_new(&mut sources, n.clone()));
        s.claims
            .iter()
            .for_each(|c| push_new(&mut claims, c.clone()));
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
    // Absent, or a case that could not run: no start to date.
    let boundary = match &newest.value {
        Value::Bool(false) => None,
        v if is_not_run(v) => None,
        _ => Some(boundary),
    };
    Some(Answer {
        family: family.to_string(),
        text: String::new(),
        since: None,
        states: answer_states(newest, boundary.as_ref()),
        boundary,
        evidence,
        disagreement,
        notes,
        sources,
        through: None,
        unknown_from: None,
        claims,
        history: history.into_iter().map(|(_, s)| s).collect(),
    })
}

/// The newest exact release of a history, as a number and as written.
fn newest_exact(history: &[Step]) -> Option<(Version, &str)> {
    history
        .iter()
        .rev()
        .find_map(|s| match Release::parse(&s.release) {
            Some(Release::Exact(v)) => Some((v, s.release.as_str())),
            _ => None,
        })
}

/// The exact releases at which a row's value or states change from the exact release
/// before, oldest first.
pub fn changes(history: &[Step]) -> Vec<(Version, &str)> {
    let kinds = |s: &Step| s.states.iter().map(|st| st.state).collect::<Vec<_>>();
    let mut out = Vec::new();
    let mut previous: Option<&Step> = None;
    for step in history {
        let Some(Release::Exact(v)) = Release::parse(&step.release) else {
            continue;
        };
        if previous.is_some_and(|p| p.value != step.value || kinds(p) != kinds(step)) {
            out.push((v, step.release.as_str()));
        }
        previous = Some(step);
    }
    out
}

/// The first release after the answer's newest one at which a row the case uses changes
/// (a function appears, goes, or changes state): from there the answer is not known.
pub fn first_change_after<'a>(
    a: &Answer,
    uses: &[String],
    features: impl Iterator<Item = &'a SummaryRow>,
) -> Option<String> {
    let (known, _) = newest_exact(&a.history)?;
    features
        .filter(|r| uses.contains(&r.id))
        .flat_map(|r| &r.answers)
        .filter(|f| f.family == a.family)
        .flat_map(|f| changes(&f.history))
        .filter(|(v, _)| *v > known)
        .min_by(|x, y| x.0.cmp(&y.0))
        .map(|(_, text)| text.to_string())
}

/// A case's answer covers the newest release or says it does not: when a function it uses
/// is added or changes in a later release, and the case has no evidence there, the answer
/// holds through its newest release and is `?` from the change on.
fn mark_stale(a: &mut Answer, uses: &[String], features: &Section) {
    let Some(change) = first_change_after(a, uses, features.rows.iter()) else {
        return;
    };
    let Some((_, last)) = newest_exact(&a.history) else {
        return;
    };
    a.through = Some(last.to_string());
    a.unknown_from = Some(change);
}

/// A value cannot begin before the rows it relies on exist: the earliest each `floors` row
/// can have begun raises the answer's boundary from below (FreeBSD `exec-enoent` known at
/// 14.0, `posix_spawn` since 8.0: `8.0–14.0`; musl's SETSCHEDPARAM known at 0.7.11, the
/// first `posix_spawn` release: exactly 0.7.11, never `≤0.7.11`).
fn bound_below(a: &mut Answer, floors: &[&SummaryRow], releases: &[Version]) {
    let Some(b) = a.boundary.clone() else { return };
    let Some(mut bounds) = bounds_of(&b, releases) else {
        return;
    };
    for row in floors {
        let earliest = row
            .answers
            .iter()
            .filter(|f| f.family == a.family)
            .find_map(|f| f.boundary.as_ref()?.earliest().map(str::to_string));
        if let Some(earliest) = earliest {
            bounds = bounds.not_before_row(&earliest, &row.id);
        }
    }
    if bounds.contradictory() {
        return;
    }
    let tightened = bounds.boundary();
    if tightened != b && Version::parse(tightened.last()) == Version::parse(b.last()) {
        a.boundary = Some(tightened);
    }
}

/// The exact releases of a history as a range: `8.3–15.1`, or the one release.
fn releases_read(history: &[Step]) -> Option<String> {
    let exact: Vec<&str> = history
        .iter()
        .filter(|s| Place::of(Some(&s.release)).is_exact())
        .map(|s| s.release.as_str())
        .collect();
    match (exact.first(), exact.last()) {
        (Some(a), Some(b)) if a == b => Some(a.to_string()),
        (Some(a), Some(b)) => Some(format!("{a}–{b}")),
        _ => None,
    }
}

/// `addfchdir` for `functions.posix_spawn_file_actions_addfchdir`: the name without the
/// object prefix, short enough for a table cell.
fn short_name(row: &str) -> &str {
    let name = row.split_once('.').map_or(row, |(_, n)| n);
    ["posix_spawn_file_actions_", "posix_spawnattr_"]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name)
}

/// The used function, beyond the spawn call, that is absent in every release of the family
/// up to the answer's newest: why a case could not run there.
fn absent_function<'s>(a: &Answer, uses: &[String], features: &'s Section) -> Option<&'s str> {
    let (known, _) = newest_exact(&a.history)?;
    let absent_through = |history: &[Step]| {
        let upto: Vec<Step> = history
            .iter()
            .filter(|s| matches!(Release::parse(&s.release), Some(Release::Exact(v)) if v <= known))
            .cloned()
            .collect();
        all_absent(&upto)
    };
    features
        .rows
        .iter()
        .filter(|r| uses.contains(&r.id))
        .filter(|r| {
            !matches!(
                r.id.as_str(),
                "functions.posix_spawn" | "functions.posix_spawnp"
            )
        })
        .find(|r| {
            r.answers
                .iter()
                .filter(|f| f.family == a.family)
                .any(|f| absent_through(&f.history))
        })
        .map(|r| r.id.as_str())
}

/// Whether every release of a history says "absent".
fn all_absent(history: &[Step]) -> bool {
    !history.is_empty() && history.iter().all(|s| s.value == Value::Bool(false))
}

/// Writes the answer's text (and `since`) from its value, boundary and staleness, in words
/// that cannot be misread: `2.29`, `no (10.14–27.0)` for a function absent in every release
/// read, `no addfchdir (8.3–15.1)` for a case whose function no release had, `ignored 2.24`,
/// `returned:ENOENT since 2.24`, and `… through 2.43; ? from 2.44` when a later release
/// changed what the case uses. An answer read only from lower bounds keeps its bare text.
fn compose(a: &mut Answer, absent: Option<&str>) {
    let Some(current) = a
        .history
        .iter()
        .rev()
        .find(|s| Place::of(Some(&s.release)).is_exact())
        .map(|s| s.value.clone())
    else {
        return;
    };
    a.since = a.boundary.as_ref().map(Boundary::text);
    let read = releases_read(&a.history).unwrap_or_default();
    let mut text = match (&current, a.since.as_deref()) {
        (Value::Bool(true), Some(since)) => since.to_string(),
        (Value::Bool(false), _) if all_absent(&a.history) => format!("no ({read})"),
        (Value::Bool(false), _) => String::from("no"),
        (v, _) if is_not_run(v) => match absent {
            Some(f) => format!("no {} ({read})", short_name(f)),
            None => format!("{v} ({read})"),
        },
        (v, Some(since)) if is_ignored(v) => format!("{v} {since}"),
        (v, Some(since)) => format!("{v} since {since}"),
        (v, None) => v.to_string(),
    };
    match (&a.through, &a.unknown_from) {
        (Some(_), Some(from)) if is_not_run(&current) => text = format!("{text}; ? from {from}"),
        (Some(through), Some(from)) => text = format!("{text} through {through}; ? from {from}"),
        _ => {}
    }
    a.text = text;
    // "Accepted, ignored" dates from where the value began.
    for st in a
        .states
        .iter_mut()
        .filter(|s| s.state == StateKind::Ignored)
    {
        st.began = a.boundary.clone();
        *st = st.clone().with_text();
    }
}

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
    let mut features = section(
        "features",
        "Functions and flags: since which release",
        &|r| r.group == "functions" || r.group == "flags",
    );
    let mut errors = section(
        "errors",
        "How errors are reported (raw libc, documented cases)",
        &is_error_row,
    );
    let releases = |family: &str| -> &[Version] {
        families
            .iter()
            .find(|(id, ..)| id == family)
            .map_or(&[], |(_, _, _, spelling)| spelling.releases.as_slice())
    };
    // Every function and flag of the family is part of its posix_spawn: none began before it.
    let spawn = features
        .rows
        .iter()
        .find(|r| r.id == "functions.posix_spawn")
        .cloned();
    for row in &mut features.rows {
        for a in &mut row.answers {
            if let Some(spawn) = spawn.as_ref().filter(|s| s.id != row.id) {
                bound_below(a, &[spawn], releases(&a.family));
            }
            compose(a, None);
        }
    }
    for row in &mut errors.rows {
        let used: Vec<&SummaryRow> = features
            .rows
            .iter()
            .filter(|r| row.uses.contains(&r.id))
            .collect();
        for a in &mut row.answers {
            mark_stale(a, &row.uses, &features);
            bound_below(a, &used, releases(&a.family));
            let absent = absent_function(a, &row.uses, &features);
            compose(a, absent);
        }
    }
    let sections = vec![features, errors];
    Summary {
        families: families
            .into_iter()
            .map(|(id, title, releases, spelling)| {
                // An OS the family matches besides its own (`<family>/<os>`) has its own
                // rows, so its claims and reasons are looked up by its own id.
                let own = matrix.families.iter().find(|f| f.id == id);
                SummaryFamily {
                    id,
                    title,
                    known_releases: spelling.release_texts.clone(),
                    shared_claims: own.map(|f| f.shared_claims.clone()).unwrap_or_default(),
                    unread: own.map(|f| f.unread.clone()).unwrap_or_default(),
                    unsettled: own.map(|f| f.unsettled.clone()).unwrap_or_default(),
                    releases: releases
                        .into_iter()
                        .map(|(_, release, cols)| {
                            let mut evidence: Vec<Evidence> =
                                cols.iter().map(|c| c.evidence).collect();
                            evidence.dedup();
                            ReleaseColumns {
                                release,
                                columns: cols.iter().map(|c| c.key.clone()).collect(),
                                evidence,
                            }
                        })
                        .collect(),
                }
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
