//! Documented claims: `targets/<family>/platform.yaml`, one file per platform family.
//!
//! A claim says what a row's value is over a range of releases, with a source. Claims become
//! `doc` columns (one per release listed in `doc_columns`) and are attached to every run or
//! link column of the same family whose release they cover, so a disagreement shows.
//!
//! ```yaml
//! family: macos            # must match the folder name
//! title: macOS             # column headers: "macOS 15"
//! description: ...
//! match: { os: [macos] }   # which reports belong to this family (libc: [...] optional)
//! version_of: os           # claims' ranges compare against os_version (or: libc)
//! os: macos                # the platform fields doc columns get
//! libc: libSystem
//! doc_columns: ["10.14", "10.15", "15"]
//! checked: "2026-11-30"   # when every claim was last checked against its sources
//! sources:
//!   XNU-H:
//!     cite: apple-oss-distributions/xnu@<40 hex>:libsyscall/wrappers/spawn/spawn.h:120
//!     note: availability macros        # optional; `cite` may be a list
//! releases: ["10.14", "10.15", "15", "26"]   # optional: the real releases, oldest first
//! claims:
//!   - row: functions.posix_spawn_file_actions_addchdir_np
//!     since: "10.15"       # documented as the first release (exact); true from 10.15 on,
//!     source: XNU-H        # and, on a functions/flags row with value true, false before
//!   - row: functions.posix_spawn_file_actions_addclosefrom_np
//!     value: false         # default true; a bool, `ignored` (flags) or an outcome string
//!     through: "15"        # range: since|from, and through (inclusive) | before (exclusive)
//!     source: XNU-H
//!   - row: functions.posix_spawn_file_actions_addchdir_np
//!     state: deprecated    # a state claim: deprecated | known-bug | needs | stub |
//!                          # header-only; no value
//!     since: "26"
//!     source: XNU-H
//!     note: in favour of posix_spawn_file_actions_addchdir   # required for known-bug
//!   - row: flags.POSIX_SPAWN_SETSID
//!     state: needs
//!     condition: _GNU_SOURCE                                  # required for needs
//!     source: XNU-H
//!   - id: GL-USE-GNU       # one fact for several rows: `rows` and an id (the summary names
//!     rows: [flags.POSIX_SPAWN_USEVFORK, flags.POSIX_SPAWN_SETSID]   # it on each row)
//!     state: needs         # a header block, an availability macro, a release note
//!     condition: _GNU_SOURCE
//!     source: GL-H
//!   - id: BIO-API-28       # a value claim may carry the states its source gives with it:
//!     rows: [functions.posix_spawn, functions.posix_spawnp]
//!     since: "9"
//!     needs: "__ANDROID_API__ >= 28"  # needs: COND | stub: ERRNO | header_only: SYMBOL
//!     source: BIO-H
//!   - row: functions.posix_spawnattr_setschedparam
//!     state: stub          # declared and linkable, every call fails; also errno (required)
//!     errno: ENOSYS        # and a note; `state: header-only` takes `symbol:` (a header
//!     since: "0.9.8"       # redirect that dlsym and weak symbols do not find)
//!     source: MUSL-SCHED
//!     note: returns ENOSYS
//! unread:                  # rows no source read here answers: each such `?` cell says why
//!   - rows: [cases.exec-enoent.libc, cases.chdir-enoent.libc]
//!     why: "not read here: no readable page gives posix_spawn's ERRORS section"
//! unsettled:               # rows whose first release stays an interval: each such cell says why
//!   - rows: [functions.posix_spawnattr_setschedparam]
//!     why: "not settled here: the first revision of posix_spawn.c was not read"
//! ```
//!
//! A claim with `rows` is one claim applied to every row it lists, so siblings cannot
//! disagree; a state annotates only the releases where its row's value is not `false` (a
//! block covers rows that began at different releases).
//!
//! Claims are histories: all claims on one row are read together ([`History`]). `since: X`
//! says a source documents X as the first release with the value; `from: X` only says the
//! claim covers X on, so where the value began is derived: exact when an earlier claim with
//! another value ends `before: X` (or `through:` the release right before X), an interval
//! `succ(P)–X` when it ends `through: P` further back, else at most X (`≤X`). The version a
//! source was read at is never a "since". State claims annotate whatever value holds over
//! their range; they may overlap. "Accepted but ignored" is the value `ignored`.
//!
//! Every source must be machine-checkable ([`Citation`]): a claim without one does not load.
//! Values must fit their row: a bool for `functions.*`, a bool or [`IGNORED`] for `flags.*`,
//! an outcome in the conformance grammar for `cases.*`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::citation::Citation;
use super::error::MatrixError;
use super::history::{History, Period, Span, StatePeriod, Upper};
use super::model::{Claim, Reason, SharedClaim, State, StateKind, Value, IGNORED};
use super::version::{Release, Version};
use crate::report::{Libc, Platform, Provenance};

/// Which platform field a family's release ranges compare against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VersionOf {
    Os,
    Libc,
}

impl VersionOf {
    pub fn name(self) -> &'static str {
        match self {
            VersionOf::Os => "os",
            VersionOf::Libc => "libc",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    pub os: Vec<String>,
    /// Empty: any libc on these OSes.
    #[serde(default)]
    pub libc: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimSpec {
    /// Required with `rows`: names the claim wherever it is applied.
    #[serde(default)]
    pub id: Option<String>,
    /// The row the claim is about; or `rows`, several rows one fact covers.
    #[serde(default)]
    pub row: Option<String>,
    #[serde(default)]
    pub rows: Vec<String>,
    #[serde(default)]
    pub value: Option<Value>,
    #[serde(default)]
    pub since: Option<String>,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub before: Option<String>,
    #[serde(default)]
    pub through: Option<String>,
    /// A key of the file's `sources`.
    pub source: String,
    #[serde(default)]
    pub note: Option<String>,
    /// A state claim instead of a value claim: it annotates whatever value holds over its
    /// range.
    #[serde(default)]
    pub state: Option<StateKind>,
    /// For `state: needs`: the build-time condition.
    #[serde(default)]
    pub condition: Option<String>,
    /// For `state: stub`: the error every call fails with.
    #[serde(default)]
    pub errno: Option<String>,
    /// For `state: header-only`: the symbol the header redirects the name to.
    #[serde(default)]
    pub symbol: Option<String>,
    /// On a value claim: a `needs` state over the claim's range, with this condition (an
    /// availability macro or API-level gate stated once with the release it names).
    #[serde(default)]
    pub needs: Option<String>,
    /// On a value claim: a `stub` state over its range, failing with this errno.
    #[serde(default)]
    pub stub: Option<String>,
    /// On a value claim: a `header-only` state over its range, a redirect to this symbol.
    #[serde(default)]
    pub header_only: Option<String>,
}

impl ClaimSpec {
    /// The rows the claim is applied to, in the order written.
    pub fn row_ids(&self) -> Vec<&str> {
        self.row
            .iter()
            .chain(&self.rows)
            .map(String::as_str)
            .collect()
    }
}

/// One citation or several.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Cites {
    One(String),
    Many(Vec<String>),
}

impl Cites {
    fn texts(&self) -> &[String] {
        match self {
            Cites::One(c) => std::slice::from_ref(c),
            Cites::Many(cs) => cs,
        }
    }
}

/// Where claims come from: checkable citations plus what they show.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub cite: Cites,
    #[serde(default)]
    pub note: Option<String>,
}

/// A platform.yaml as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlatformFile {
    pub family: String,
    pub title: String,
    pub description: String,
    #[serde(rename = "match")]
    pub matches: Match,
    pub version_of: VersionOf,
    pub os: String,
    pub libc: String,
    #[serde(default)]
    pub doc_columns: Vec<String>,
    /// The family's real release numbers, oldest first (optional): "the release after P" is
    /// the next of them, so macOS 15 → 26 is adjacent. Without it, the next number at P's
    /// precision.
    #[serde(default)]
    pub releases: Vec<String>,
    /// `YYYY-MM-DD`: when the claims were last checked against their sources.
    pub checked: String,
    pub sources: BTreeMap<String, Source>,
    #[serde(default)]
    pub claims: Vec<ClaimSpec>,
    /// Rows with no claim because no source for them can be read from here, with why: the
    /// reason each of their `?` cells prints.
    #[serde(default)]
    pub unread: Vec<Reason>,
    /// Rows whose first release stays an interval because the family's history cannot
    /// settle it from here, with why: the reason each such cell prints.
    #[serde(default)]
    pub unsettled: Vec<Reason>,
}

/// One family's checked claims.
#[derive(Debug, Clone, PartialEq)]
pub struct Family {
    pub file: PathBuf,
    pub spec: PlatformFile,
    /// Each row's documented history.
    histories: BTreeMap<String, History>,
    /// Each source key's citations, parsed.
    citations: BTreeMap<String, Vec<Citation>>,
    /// The claims with an `id`, and the rows each covers.
    shared: Vec<SharedClaim>,
}

/// What a family documents for one row at one release.
#[derive(Debug, Clone, PartialEq)]
pub struct Documented {
    pub claim: Option<Claim>,
    pub states: Vec<State>,
}

/// All families from a `targets/` folder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Docs {
    pub families: Vec<Family>,
}

/// The row-id prefixes a claim may name.
const ROW_PREFIXES: &[&str] = &["functions.", "flags.", "kernel.", "cases.", "perf."];

/// Refuses a family's reasons (`unread` or `unsettled`) that name no rows, whose why does not
/// start with `words`, or that name a row `misplaced` says does not belong.
fn check_reasons(
    path: &Path,
    field: &str,
    reasons: &[Reason],
    words: &str,
    misplaced: impl Fn(&str) -> Option<String>,
) -> Result<(), MatrixError> {
    for (i, u) in reasons.iter().enumerate() {
        if u.rows.is_empty() || !u.why.starts_with(words) {
            return Err(claims_error(
                path,
                format!(
                    "{field}[{i}]: needs rows and a why that starts {words:?} \
                     (what was tried, why it does not answer)"
                ),
            ));
        }
        if let Some(why) = u.rows.iter().find_map(|r| misplaced(r)) {
            return Err(claims_error(path, format!("{field}[{i}]: {why}")));
        }
    }
    Ok(())
}

fn claims_error(path: &Path, message: String) -> MatrixError {
    MatrixError::Claims {
        path: path.to_path_buf(),
        message,
    }
}

fn version(path: &Path, what: &str, text: &str) -> Result<Version, MatrixError> {
    Version::parse(text)
        .ok_or_else(|| claims_error(path, format!("{what}: {text:?} is not a release number")))
}

/// Whether `date` is a real `YYYY-MM-DD` date no later than `today` (same form).
fn valid_checked_date(date: &str, today: &str) -> Result<(), String> {
    let parts: Vec<&str> = date.split('-').collect();
    let number = |p: &str, len: usize| {
        (p.len() == len && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse::<u32>().ok())
            .flatten()
    };
    let (Some(y), Some(m), Some(d)) = (match parts[..] {
        [y, m, d] => (number(y, 4), number(m, 2), number(d, 2)),
        _ => (None, None, None),
    }) else {
        return Err(format!("checked: {date:?} is not YYYY-MM-DD"));
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    if d == 0 || d > days {
        return Err(format!("checked: {date:?} is not a date"));
    }
    if date > today {
        return Err(format!("checked: {date:?} is after today ({today})"));
    }
    Ok(())
}

/// Whether a claim's value fits its row: availability is a bool (a flag may also be
/// accepted and ignored), a case row holds an outcome.
fn value_fits_row(row: &str, value: &Value) -> Result<(), String> {
    match (row.split('.').next(), value) {
        (Some("functions" | "kernel"), Value::Bool(_)) => Ok(()),
        (Some("flags"), Value::Bool(_)) => Ok(()),
        (Some("flags"), Value::Text(t)) if t == IGNORED => Ok(()),
        (Some("flags"), _) => Err(format!("a flag is true, false or {IGNORED:?}")),
        (Some("cases"), Value::Text(t)) => t
            .parse::<crate::conformance::outcome::Outcome>()
            .map(|_| ())
            .map_err(|e| e.to_string()),
        (Some("perf"), Value::Number(_)) => Ok(()),
        _ => Err(format!("{value} does not fit this row")),
    }
}

/// Whether `text` reads as an errno name (`ENOSYS`).
fn is_errno(text: &str) -> bool {
    text.len() > 1
        && text.starts_with('E')
        && text
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// What a state needs besides its range: `needs` its condition, `stub` its errno and a note,
/// `header-only` the symbol, a known bug its note; each detail belongs to its state only.
fn check_state(
    row: &str,
    state: StateKind,
    detail: (&Option<String>, &Option<String>, &Option<String>),
    note: &Option<String>,
) -> Result<(), String> {
    let (condition, errno, symbol) = detail;
    let availability = row.starts_with("functions.") || row.starts_with("flags.");
    match state {
        StateKind::Ignored => {
            return Err(format!(
                "accepted-but-ignored is a value (value: {IGNORED}), not a state claim"
            ))
        }
        StateKind::Needs if condition.is_none() => {
            return Err(String::from("state needs names its condition"))
        }
        StateKind::KnownBug if note.is_none() => {
            return Err(String::from("a known-bug says what it is (note)"))
        }
        StateKind::Stub if !errno.as_deref().is_some_and(is_errno) => {
            return Err(String::from(
                "a stub names the errno every call fails with (errno: ENOSYS)",
            ))
        }
        StateKind::Stub if note.is_none() => {
            return Err(String::from("a stub says what shows it (note)"))
        }
        StateKind::HeaderOnly if symbol.is_none() => {
            return Err(String::from(
                "a header-only name says which symbol the header redirects it to (symbol)",
            ))
        }
        StateKind::Stub | StateKind::HeaderOnly if !row.starts_with("functions.") => {
            return Err(format!("{} is a state of a functions.* row", state.name()))
        }
        StateKind::Needs if !availability => {
            return Err(String::from(
                "needs is a state of a functions.* or flags.* row",
            ))
        }
        _ => {}
    }
    let stray = [
        (
            condition.is_some() && state != StateKind::Needs,
            "condition",
            "needs",
        ),
        (errno.is_some() && state != StateKind::Stub, "errno", "stub"),
        (
            symbol.is_some() && state != StateKind::HeaderOnly,
            "symbol",
            "header-only",
        ),
    ];
    match stray.iter().find(|(bad, _, _)| *bad) {
        Some((_, field, owner)) => Err(format!("{field} belongs to state: {owner}")),
        None => Ok(()),
    }
}

/// The states a value claim carries (`needs:`, `stub:`, `header_only:`), as state kinds with
/// their detail (condition, errno, symbol).
fn carried_states(c: &ClaimSpec) -> Vec<(StateKind, [Option<String>; 3])> {
    let mut out = Vec::new();
    if let Some(cond) = &c.needs {
        out.push((StateKind::Needs, [Some(cond.clone()), None, None]));
    }
    if let Some(errno) = &c.stub {
        out.push((StateKind::Stub, [None, Some(errno.clone()), None]));
    }
    if let Some(symbol) = &c.header_only {
        out.push((StateKind::HeaderOnly, [None, None, Some(symbol.clone())]));
    }
    out
}

/// `row` or `rows`, not both; `rows` lists two rows or more, once each, under an `id` made
/// of letters, digits, `-`, `_` and `.`.
fn check_rows(c: &ClaimSpec) -> Result<(), String> {
    match (&c.row, c.rows.len()) {
        (Some(_), 1..) => return Err(String::from("row or rows, not both")),
        (None, 0) => return Err(String::from("a claim names its row (row: or rows:)")),
        (None, 1) => return Err(String::from("rows: lists several rows; one is row:")),
        _ => {}
    }
    if let Some(dup) = c
        .rows
        .iter()
        .enumerate()
        .find_map(|(i, r)| c.rows[..i].contains(r).then_some(r))
    {
        return Err(format!("rows: {dup} is listed twice"));
    }
    match &c.id {
        None if !c.rows.is_empty() => Err(String::from(
            "a claim covering several rows has an id (the summary names it on every row)",
        )),
        Some(id)
            if id.is_empty()
                || !id
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | '.')) =>
        {
            Err(format!("id {id:?}: only letters, digits, '-', '_' and '.'"))
        }
        _ => Ok(()),
    }
}

/// Checks one claim for one of its rows and adds it to that row's history: a value claim
/// becomes a period (a `since` on an available-or-not row also claims `false` before it) and
/// the states it carries, a state claim a state.
fn add_claim(
    path: &Path,
    spec: &PlatformFile,
    at: &str,
    c: &ClaimSpec,
    row: &str,
    history: &mut History,
) -> Result<(), MatrixError> {
    let fail = |m: String| claims_error(path, format!("{at}: {m}"));
    if !ROW_PREFIXES.iter().any(|p| row.starts_with(p)) {
        return Err(fail(format!("row must start with one of {ROW_PREFIXES:?}")));
    }
    if let Some(v) = &c.value {
        value_fits_row(row, v).map_err(fail)?;
    } else if c.state.is_none() && row.starts_with("cases.") {
        return Err(fail(String::from("a case row's claim names its value")));
    }
    if !spec.sources.contains_key(&c.source) {
        return Err(fail(format!(
            "source {:?} is not listed under sources",
            c.source
        )));
    }
    let parse = |what: &str, v: &Option<String>| {
        v.as_deref()
            .map(|t| version(path, &format!("{at}: {what}"), t))
            .transpose()
    };
    let (before, through) = (parse("before", &c.before)?, parse("through", &c.through)?);
    let (since, from) = (parse("since", &c.since)?, parse("from", &c.from)?);
    if before.is_some() && through.is_some() {
        return Err(fail(String::from("before or through, not both")));
    }
    if since.is_some() && from.is_some() {
        return Err(fail(String::from("since or from, not both")));
    }
    let span = Span {
        from: since.clone().or(from),
        from_text: c.since.clone().or(c.from.clone()),
        upper: before.map(Upper::Before).or(through.map(Upper::Through)),
        upper_text: c.before.clone().or(c.through.clone()),
        documented_first: since.is_some(),
    };
    let state_period = |state: StateKind, detail: [Option<String>; 3], carried: bool| {
        let [condition, errno, symbol] = detail;
        StatePeriod {
            state,
            condition,
            errno,
            symbol,
            span: span.clone(),
            source: c.source.clone(),
            note: c.note.clone(),
            claim: c.id.clone(),
            carried,
        }
    };
    let Some(state) = c.state else {
        if c.condition.is_some() {
            return Err(fail(String::from("condition belongs to state: needs")));
        }
        if c.errno.is_some() || c.symbol.is_some() {
            return Err(fail(String::from(
                "errno and symbol belong to state: stub and state: header-only",
            )));
        }
        let value = c.value.clone().unwrap_or(Value::Bool(true));
        let availability = !row.starts_with("cases.") && !row.starts_with("perf.");
        let carried = carried_states(c);
        let there = availability && value.agrees_with(&Value::Bool(true));
        if !carried.is_empty() && !there {
            return Err(fail(String::from(
                "needs, stub and header_only qualify a value that is there (a functions.* or flags.* row that is not false)",
            )));
        }
        for (kind, [cond, errno, symbol]) in &carried {
            check_state(row, *kind, (cond, errno, symbol), &c.note).map_err(fail)?;
        }
        if let (Some(since), true, Value::Bool(true)) = (&since, availability, &value) {
            // Documented first at `since`: absent before it. The note describes the
            // function where it exists, not its absence.
            history.periods.push(Period {
                value: Value::Bool(false),
                span: Span {
                    from: None,
                    from_text: None,
                    upper: Some(Upper::Before(since.clone())),
                    upper_text: c.since.clone(),
                    documented_first: false,
                },
                source: c.source.clone(),
                note: None,
                began: None,
                claim: c.id.clone(),
            });
        }
        history.periods.push(Period {
            value,
            span: span.clone(),
            source: c.source.clone(),
            note: c.note.clone(),
            began: None,
            claim: c.id.clone(),
        });
        for (kind, detail) in carried {
            history.states.push(state_period(kind, detail, true));
        }
        return Ok(());
    };
    if c.value.is_some() {
        return Err(fail(String::from("a state claim has no value")));
    }
    if !carried_states(c).is_empty() {
        return Err(fail(String::from(
            "needs:, stub: and header_only: go on a value claim; a state claim says state:",
        )));
    }
    check_state(row, state, (&c.condition, &c.errno, &c.symbol), &c.note).map_err(fail)?;
    history.states.push(state_period(
        state,
        [c.condition.clone(), c.errno.clone(), c.symbol.clone()],
        false,
    ));
    Ok(())
}

impl Family {
    /// Parses and checks one platform.yaml: a `checked` date, machine-checkable citations,
    /// known row prefixes and values that fit them, known sources, release numbers that
    /// parse, and no two claims on one row that overlap with different values.
    pub fn parse(path: &Path, text: &str) -> Result<Family, MatrixError> {
        let today = crate::report::now_rfc3339();
        Family::parse_as_of(path, text, &today[..10])
    }

    /// [`Family::parse`] with the date `checked` may not exceed.
    pub fn parse_as_of(path: &Path, text: &str, today: &str) -> Result<Family, MatrixError> {
        let spec: PlatformFile = crate::yaml::from_str(path, text)?;
        for v in &spec.doc_columns {
            version(path, "doc_columns", v)?;
        }
        valid_checked_date(&spec.checked, today).map_err(|m| claims_error(path, m))?;
        let mut citations = BTreeMap::new();
        for (key, source) in &spec.sources {
            if source.cite.texts().is_empty() {
                return Err(claims_error(path, format!("sources.{key}: no citation")));
            }
            let parsed = source
                .cite
                .texts()
                .iter()
                .map(|t| t.parse::<Citation>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| claims_error(path, format!("sources.{key}: {e}")))?;
            citations.insert(key.clone(), parsed);
        }
        let known = spec
            .releases
            .iter()
            .map(|v| version(path, "releases", v))
            .collect::<Result<Vec<_>, _>>()?;
        let mut histories: BTreeMap<String, History> = BTreeMap::new();
        let mut shared: Vec<SharedClaim> = Vec::new();
        for (i, c) in spec.claims.iter().enumerate() {
            let rows = c.row_ids();
            let at = format!("claims[{i}] ({})", rows.join(", "));
            check_rows(c).map_err(|m| claims_error(path, format!("{at}: {m}")))?;
            if let Some(id) = &c.id {
                if shared.iter().any(|s| s.id == *id) {
                    return Err(claims_error(
                        path,
                        format!("{at}: id {id:?} names two claims"),
                    ));
                }
                shared.push(SharedClaim {
                    id: id.clone(),
                    rows: rows.iter().map(|r| r.to_string()).collect(),
                });
            }
            for row in rows {
                let at = format!("claims[{i}] ({row})");
                let history = histories.entry(row.to_string()).or_default();
                add_claim(path, &spec, &at, c, row, history)?;
            }
        }
        for (row, history) in &mut histories {
            if let Some((a, b)) = history.overlap() {
                return Err(claims_error(
                    path,
                    format!(
                        "claims on {row} overlap with different values ({} from {}, {} from {})",
                        a.value, a.source, b.value, b.source
                    ),
                ));
            }
            history.date(&known);
        }
        let claimed = |row: &str| histories.contains_key(row);
        check_reasons(path, "unread", &spec.unread, "not read here: ", |row| {
            claimed(row).then(|| format!("{row} has claims, so it is not unread"))
        })?;
        // A range may rest on reports, not claims: the consistency check holds each
        // `unsettled` row to a ranged cell.
        check_reasons(
            path,
            "unsettled",
            &spec.unsettled,
            "not settled here: ",
            |_| None,
        )?;
        Ok(Family {
            file: path.to_path_buf(),
            spec,
            histories,
            citations,
            shared,
        })
    }

    /// Whether a report's platform belongs to this family.
    pub fn matches(&self, p: &Platform) -> bool {
        let m = &self.spec.matches;
        m.os.contains(&p.os) && (m.libc.is_empty() || m.libc.contains(&p.libc.name))
    }

    /// The release of `p` that this family's ranges compare against.
    pub fn release_of(&self, p: &Platform) -> Option<Release> {
        let text = match self.spec.version_of {
            VersionOf::Os => p.os_version.as_deref(),
            VersionOf::Libc => p.libc.version.as_deref(),
        }?;
        Release::parse(text)
    }

    /// The documented value of `row` at `release`, with its source text and where it began.
    pub fn claim(&self, row: &str, release: &Release) -> Option<Claim> {
        self.histories
            .get(row)?
            .claim(release, &|key| self.source_text(key))
    }

    /// The documented states of `row` at `release`.
    pub fn states(&self, row: &str, release: &Release) -> Vec<State> {
        self.histories
            .get(row)
            .map(|h| h.states(release, &|key| self.source_text(key)))
            .unwrap_or_default()
    }

    /// Everything the family documents at `release`, row by row: the covering claim (if a
    /// value claim covers it) and the states over it. One call per column, for the merge.
    pub fn at(&self, release: &Release) -> BTreeMap<&str, Documented> {
        let source = |key: &str| self.source_text(key);
        self.histories
            .iter()
            .map(|(row, h)| {
                let d = Documented {
                    claim: h.claim(release, &source),
                    states: h.states(release, &source),
                };
                (row.as_str(), d)
            })
            .filter(|(_, d)| d.claim.is_some() || !d.states.is_empty())
            .collect()
    }

    /// The family's release list as numbers (see [`PlatformFile::releases`]).
    pub fn known_releases(&self) -> Vec<String> {
        self.spec.releases.clone()
    }

    /// The documented history of `row`.
    pub fn history(&self, row: &str) -> Option<&History> {
        self.histories.get(row)
    }

    /// `KEY: note (citation; citation)`.
    pub fn source_text(&self, key: &str) -> String {
        let note = self
            .spec
            .sources
            .get(key)
            .and_then(|s| s.note.as_deref())
            .map(|n| format!("{n} "))
            .unwrap_or_default();
        let cites: Vec<String> = self
            .citations
            .get(key)
            .into_iter()
            .flatten()
            .map(Citation::to_string)
            .collect();
        format!("{key}: {note}({})", cites.join("; "))
    }

    /// Every citation of every source, parsed.
    pub fn citations(&self) -> impl Iterator<Item = (&str, &Citation)> {
        self.citations
            .iter()
            .flat_map(|(k, cs)| cs.iter().map(move |c| (k.as_str(), c)))
    }

    /// The claims with an `id` (those covering several rows), with their rows.
    pub fn shared_claims(&self) -> &[SharedClaim] {
        &self.shared
    }

    /// Every row this family makes a claim about, in order, once each.
    pub fn rows(&self) -> Vec<&str> {
        self.histories.keys().map(String::as_str).collect()
    }

    /// The platform a doc column for release `v` stands for.
    pub fn doc_platform(&self, v: &str) -> Platform {
        let (os_version, libc_version) = match self.spec.version_of {
            VersionOf::Os => (Some(v.to_string()), None),
            VersionOf::Libc => (None, Some(v.to_string())),
        };
        Platform {
            os: self.spec.os.clone(),
            os_version,
            kernel: None,
            arch: String::from("any"),
            target: String::from("any"),
            libc: Libc {
                name: self.spec.libc.clone(),
                version: libc_version,
                detail: None,
            },
            provenance: Provenance {
                kind: String::from("doc"),
                image: None,
                host: None,
            },
        }
    }
}

impl Docs {
    /// Reads `targets/*/platform.yaml`. A missing folder gives no families.
    pub fn load(targets: &Path) -> Result<Docs, MatrixError> {
        let files = super::load::list_dir(targets, |dir| {
            let file = dir.join("platform.yaml");
            file.is_file().then_some(file)
        })?;
        let mut families: Vec<Family> = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).map_err(|source| MatrixError::Io {
                path: file.clone(),
                source,
            })?;
            let family = Family::parse(&file, &text)?;
            let folder = file.parent().and_then(Path::file_name);
            if folder.is_some_and(|f| *f != *family.spec.family) {
                return Err(claims_error(
                    &file,
                    format!("family {:?} does not match its folder", family.spec.family),
                ));
            }
            if let Some(other) = families
                .iter()
                .find(|f| f.spec.family == family.spec.family)
            {
                return Err(MatrixError::DuplicateFamily {
                    family: family.spec.family.clone(),
                    first: other.file.clone(),
                    second: file,
                });
            }
            families.push(family);
        }
        Ok(Docs { families })
    }

    /// The family a report's platform belongs to.
    pub fn family_of(&self, p: &Platform) -> Option<&Family> {
        self.families.iter().find(|f| f.matches(p))
    }
}
