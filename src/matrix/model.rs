//! The merged capability matrix: columns (platforms), rows (stable dotted ids), cells.
//!
//! This is the JSON form (`matrix.json`, described by `schema/matrix.v1.schema.json`); the
//! renderers and `diff` read nothing else.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use super::boundary::Boundary;
use crate::report::Platform;

/// Bumped whenever a field of the matrix JSON changes meaning or a required field is added.
pub const MATRIX_SCHEMA_VERSION: u32 = 1;

/// How a cell is known. The order is the precedence: `Run` beats `Link` beats `Doc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Evidence {
    /// Observed by running the probe (natively, in a container, in CI or under full-system
    /// emulation of another architecture with a real kernel).
    Run,
    /// Found by linking a probe against a sysroot.
    Link,
    /// Documented; the cell names its source.
    Doc,
}

impl Evidence {
    /// The evidence a report's provenance kind gives, or `None` for an unknown kind.
    pub fn from_provenance(kind: &str) -> Option<Evidence> {
        match kind {
            "native" | "container" | "ci" | "emulated" => Some(Evidence::Run),
            "link" => Some(Evidence::Link),
            "doc" => Some(Evidence::Doc),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Evidence::Run => "run",
            Evidence::Link => "link",
            Evidence::Doc => "doc",
        }
    }
}

/// `R`, `L`, `D`: evidence as the letters the plain-text summary prints.
pub fn letters(evidence: &[Evidence]) -> String {
    evidence
        .iter()
        .map(|e| match e {
            Evidence::Run => 'R',
            Evidence::Link => 'L',
            Evidence::Doc => 'D',
        })
        .collect()
}

/// What a cell says: availability, an outcome string, or a number (perf ratios).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Number(f64),
    Text(String),
}

/// The third value of a flag row: `setflags` accepts the flag, but the spawn does nothing
/// with it (OpenBSD's `#if 0 /* NOT IMPLEMENTED */` scheduling, musl's scheduling flags).
/// Evidence that only sees acceptance (a linked macro, `setflags` returning 0) agrees with it.
pub const IGNORED: &str = "ignored";

impl Value {
    /// Whether two values for one cell say the same thing: equal, or `true` (the flag is
    /// accepted) against [`IGNORED`] (accepted, without effect), which only refines it.
    pub fn agrees_with(&self, other: &Value) -> bool {
        let ignored = |v: &Value| matches!(v, Value::Text(t) if t == IGNORED);
        self == other
            || (ignored(self) && *other == Value::Bool(true))
            || (ignored(other) && *self == Value::Bool(true))
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bool(true) => f.write_str("yes"),
            Value::Bool(false) => f.write_str("no"),
            Value::Number(n) => write!(f, "{n:.2}"),
            Value::Text(t) => f.write_str(t),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matrix {
    pub schema_version: u32,
    /// The suite version that merged the matrix.
    pub suite_version: String,
    /// RFC 3339, UTC.
    pub generated_at: String,
    /// The `targets/` families the columns belong to, in display order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub families: Vec<FamilyInfo>,
    pub columns: Vec<Column>,
    pub groups: Vec<Group>,
    pub rows: Vec<Row>,
}

/// What the summary needs of a `targets/<family>/platform.yaml`: its name, the OS its doc
/// columns stand for, and which version its releases are numbered by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyInfo {
    /// The folder name (`linux-glibc`, `macos`).
    pub id: String,
    /// Short header (`glibc`, `macOS`).
    pub title: String,
    /// The `os` of the family's own platforms; a column of another OS the family also matches
    /// (illumos under a Solaris family) is summarised as a family of its own.
    pub os: String,
    /// `os` or `libc`: which version a release of this family is.
    pub version_of: String,
    /// The family's real releases, oldest first, when its platform.yaml lists them: the
    /// release after a known one is the next of these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub releases: Vec<String>,
    /// The claims that state one fact for several rows (a header block, an availability
    /// macro, an API-level gate, a release note), with the rows each covers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_claims: Vec<SharedClaim>,
    /// Rows the family has no answer for, each group with why no source for them can be read
    /// from here: what every such `?` cell says.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<Reason>,
    /// Rows whose first release the family's history cannot settle, each group with why:
    /// what every such interval cell says.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsettled: Vec<Reason>,
}

/// One claim covering several rows: its `id` and the rows it is applied to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedClaim {
    pub id: String,
    pub rows: Vec<String>,
}

/// Why a family's cells on some rows know less than a reader wants, stated once for every row
/// it covers: no source for them can be read from here (`unread`: each prints `?` with it), or
/// the history cannot settle their first release (`unsettled`: each interval prints it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reason {
    pub rows: Vec<String>,
    pub why: String,
}

/// One platform as observed (one or more reports with the same platform key) or documented.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Column {
    /// `report::Platform::key()`: stable across runs, unique in a matrix.
    pub key: String,
    /// Short header for tables (`glibc 2.36`, `macOS 15`), unique in a matrix.
    pub label: String,
    /// The `targets/` family this platform belongs to, when a platform.yaml claims it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    pub evidence: Evidence,
    pub platform: Platform,
    /// The suite versions of the reports behind this column (none for doc columns).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suite_versions: Vec<String>,
    /// When the newest report behind this column was generated (none for doc columns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_at: Option<String>,
    /// The files this column was read from (reports or platform.yaml).
    pub origins: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// `functions`, `flags`, `kernel`, `cases.<area>`, `perf`.
    pub id: String,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// Stable dotted id: `functions.<name>`, `flags.<NAME>`, `kernel.<feature>`,
    /// `cases.<case-id>.<subject>`, `perf.<strategy>.ratio_to_floor.<N>mib`.
    pub id: String,
    /// The id of the group this row belongs to.
    pub group: String,
    /// What the row checks, for case rows (the case's title).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// For case rows: the feature rows the case relies on (`functions.posix_spawn`, the
    /// chdir action it adds), from the case file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<String>,
    /// Keyed by column key; a platform with nothing known for this row has no entry.
    pub cells: BTreeMap<String, Cell>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    pub value: Value,
    pub evidence: Evidence,
    /// How a capability was found (`dlsym`, `link`, `setflags`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub how: Option<String>,
    /// For cases: whether the outcome met the platform's expectation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Where a documented value comes from; required for `doc` evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// For `doc` evidence: the first release the documented range covers (`since`/`from`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// For `doc` evidence: where the documented value began, as far as the family's claims
    /// on the row tell ([`Boundary`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub began: Option<Boundary>,
    /// For `doc` evidence: the `id` of the claim when it covers several rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
    /// The documented states over this release (deprecated, known bug, needs a condition).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<State>,
    /// The documented claim for this run or link cell, when one covers this platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<Claim>,
    /// Every other value seen for this cell that differs from `value`: a doc claim that run
    /// or link evidence contradicts, or another report for the same platform key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Alternative>,
}

/// A documented value with its source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub value: Value,
    /// The first release the documented range covers (`since` or `from`), when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Where the value began, as far as the family's claims on the row tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub began: Option<Boundary>,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The `id` of the platform.yaml claim that states this once for several rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
}

/// A state beyond the value: what a user of the feature must know besides "it is there".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateKind {
    /// Accepted (a flag `setflags` takes) but without effect: the value [`IGNORED`].
    Ignored,
    /// Deprecated from the start of the state's range.
    Deprecated,
    /// A documented bug; the note says what, the source where.
    KnownBug,
    /// Usable only when a build-time condition holds (`_GNU_SOURCE`, `__ANDROID_API__ >= 34`,
    /// a macOS deployment target).
    Needs,
    /// Declared and linkable, but every call fails (`errno` says with what): musl's
    /// `posix_spawnattr_setschedparam`, which returns `ENOSYS` in every release.
    Stub,
    /// The name exists only as a header redirect to another symbol (`symbol`): it compiles
    /// and links, but a run-time lookup by name (`dlsym`, a weak symbol) finds nothing
    /// (glibc 2.44's POSIX `add(f)chdir`, BZ 34437).
    HeaderOnly,
}

impl StateKind {
    pub fn name(self) -> &'static str {
        match self {
            StateKind::Ignored => "ignored",
            StateKind::Deprecated => "deprecated",
            StateKind::KnownBug => "known-bug",
            StateKind::Needs => "needs",
            StateKind::Stub => "stub",
            StateKind::HeaderOnly => "header-only",
        }
    }
}

/// One documented state of a cell, with its range start, note and source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub state: StateKind,
    /// Where the state began (a deprecation's release), when the claim names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub began: Option<Boundary>,
    /// Where the state's range ends, when it does: `before 2.37`, `through 15`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends: Option<String>,
    /// For `needs`: the build-time condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// For `stub`: the error every call fails with (`ENOSYS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errno: Option<String>,
    /// For `header-only`: the symbol the header redirects the name to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub source: String,
    /// The `id` of the platform.yaml claim that states this once for several rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
    /// [`State::short`], written out so that the page shows what Rust computed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

impl State {
    /// A few words: `deprecated since 26`, `known bug`, `needs _GNU_SOURCE`, `ignored`.
    pub fn short(&self) -> String {
        let since = self
            .began
            .as_ref()
            .map(|b| format!(" since {}", b.text()))
            .unwrap_or_default();
        let ends = self
            .ends
            .as_deref()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default();
        let what = match self.state {
            StateKind::Ignored => format!("accepted, ignored{since}"),
            StateKind::Deprecated => format!("deprecated{since}"),
            StateKind::KnownBug => format!("known bug{since}"),
            StateKind::Needs => self.tag(),
            StateKind::Stub => match self.errno.as_deref() {
                Some(e) => format!("stub, every call fails with {e}{since}"),
                None => format!("stub, every call fails{since}"),
            },
            StateKind::HeaderOnly => match self.symbol.as_deref() {
                Some(s) => format!("header only (a redirect to {s}; dlsym finds nothing){since}"),
                None => format!("header only (dlsym finds nothing){since}"),
            },
        };
        format!("{what}{ends}")
    }

    /// The state in a word or two, for a table cell: `deprecated`, `known bug`, `needs
    /// _GNU_SOURCE`, `stub (ENOSYS)`, `header only`, `ignored`.
    pub fn tag(&self) -> String {
        match self.state {
            StateKind::Ignored => String::from("ignored"),
            StateKind::Deprecated => String::from("deprecated"),
            StateKind::KnownBug => String::from("known bug"),
            StateKind::Needs => format!(
                "needs {}",
                self.condition
                    .as_deref()
                    .unwrap_or("a build-time condition")
            ),
            StateKind::Stub => match self.errno.as_deref() {
                Some(e) => format!("stub ({e})"),
                None => String::from("stub"),
            },
            StateKind::HeaderOnly => String::from("header only"),
        }
    }

    /// The state with its [`State::text`] filled in.
    pub fn with_text(mut self) -> State {
        self.text = self.short();
        self
    }
}

/// A value that disagrees with the cell's own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Alternative {
    pub value: Value,
    pub evidence: Evidence,
    /// The report file or the documented source it comes from.
    pub origin: String,
}

/// One flagged disagreement, for listings (stderr, Markdown, diff).
#[derive(Debug, Clone, PartialEq)]
pub struct Disagreement<'a> {
    pub row: &'a str,
    pub column: &'a Column,
    pub cell: &'a Cell,
}

impl Matrix {
    /// Every cell that carries a disagreement, in row then column order.
    pub fn disagreements(&self) -> impl Iterator<Item = Disagreement<'_>> {
        self.rows.iter().flat_map(move |row| {
            row.cells
                .iter()
                .filter(|(_, cell)| !cell.conflicts.is_empty())
                .filter_map(move |(key, cell)| {
                    Some(Disagreement {
                        row: &row.id,
                        column: self.column(key)?,
                        cell,
                    })
                })
        })
    }

    pub fn row(&self, id: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.id == id)
    }

    pub fn column(&self, key: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.key == key)
    }
}

impl Disagreement<'_> {
    /// One line for stderr and listings: row, column and every value with its origin.
    pub fn describe(&self) -> String {
        let others: Vec<String> = self
            .cell
            .conflicts
            .iter()
            .map(|a| format!("{} {} ({})", a.evidence.name(), a.value, a.origin))
            .collect();
        format!(
            "{} on {} ({}): {} {} disagrees with {}",
            self.row,
            self.column.label,
            self.column.key,
            self.cell.evidence.name(),
            self.cell.value,
            others.join(", ")
        )
    }
}
