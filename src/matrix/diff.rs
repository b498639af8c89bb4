//! What changed between two matrices (or reports), as a list a reviewer reads: regressions
//! first, then improvements, other changes, additions and removals.
//!
//! Only the same platform is compared. Columns pair up when their keys are equal; a column
//! without a same-key partner pairs with the only unpaired column of the same [`Identity`]
//! on the other side (a libc upgrade on one machine: two reports with different keys). Every
//! other column is listed as added or removed, never compared, so a bullseye report against
//! a macOS link report is no list of glibc "regressions".
//!
//! A regression is a capability that went from available to absent, a case whose verdict went
//! to `fail`, or a case whose outcome changed without its verdict going back to passing. Perf
//! ratios are noisy: a change over 10% is listed as a change, never as a regression.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde::Serialize;

use super::model::{Cell, Column, Evidence, Matrix, Value};

/// What makes two columns the same platform: OS, architecture, libc and evidence level.
/// Versions (of the OS and the libc) and the provenance's image may differ.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Identity {
    pub os: String,
    pub arch: String,
    pub libc: String,
    pub evidence: Evidence,
}

impl Identity {
    pub fn of(column: &Column) -> Identity {
        let p = &column.platform;
        Identity {
            os: p.os.clone(),
            arch: p.arch.clone(),
            libc: p.libc.name.clone(),
            evidence: column.evidence,
        }
    }
}

impl std::fmt::Display for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (os, arch, libc) = (&self.os, &self.arch, &self.libc);
        write!(f, "{os} {arch} {libc} ({})", self.evidence.name())
    }
}

/// Every platform identity among `m`'s columns, sorted, once each.
pub fn identities(m: &Matrix) -> Vec<String> {
    let set: BTreeSet<Identity> = m.columns.iter().map(Identity::of).collect();
    set.iter().map(Identity::to_string).collect()
}

/// Two columns compared as one platform.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    pub old: String,
    pub new: String,
    /// The shared [`Identity`], as text.
    pub platform: String,
}

/// The result: which columns were compared and what changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diff {
    pub compared: Vec<Pair>,
    pub changes: Vec<Change>,
}

/// The listing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Regression,
    Improvement,
    Changed,
    Added,
    Removed,
}

impl ChangeKind {
    pub fn title(self) -> &'static str {
        match self {
            ChangeKind::Regression => "Regressions",
            ChangeKind::Improvement => "Improvements",
            ChangeKind::Changed => "Other changes",
            ChangeKind::Added => "Added",
            ChangeKind::Removed => "Removed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    /// `None` for a whole column added or removed.
    pub row: Option<String>,
    /// The new column's key (the old one's for a removed column).
    pub column: String,
    pub what: String,
}

/// The outcome of a case whose function or flag is absent.
const UNSUPPORTED: &str = "unsupported";

/// Perf ratios within this fraction of each other are the same.
const PERF_TOLERANCE: f64 = 0.10;

fn verdict_failed(cell: &Cell) -> bool {
    cell.verdict.as_deref() == Some("fail")
}

/// How one cell changed, if it did.
fn classify(old: &Cell, new: &Cell) -> Option<(ChangeKind, String)> {
    let (ov, nv) = (&old.value, &new.value);
    let change = match (ov, nv) {
        (Value::Bool(true), Value::Bool(false)) => {
            (ChangeKind::Regression, "available -> absent".to_string())
        }
        (Value::Bool(false), Value::Bool(true)) => {
            (ChangeKind::Improvement, "absent -> available".to_string())
        }
        _ if verdict_failed(new) && !verdict_failed(old) => (
            ChangeKind::Regression,
            format!("pass -> fail ({ov} -> {nv})"),
        ),
        _ if verdict_failed(old) && !verdict_failed(new) => (
            ChangeKind::Improvement,
            format!("fail -> pass ({ov} -> {nv})"),
        ),
        (Value::Number(a), Value::Number(b)) => {
            if (b - a).abs() <= PERF_TOLERANCE * a.abs() {
                return None;
            }
            (ChangeKind::Changed, format!("{a:.2} -> {b:.2}"))
        }
        // A case that could not run before (a function or flag absent) and runs now.
        (Value::Text(a), Value::Text(b)) if a == UNSUPPORTED && b != a => (
            ChangeKind::Improvement,
            format!("now supported: {a} -> {b}"),
        ),
        (Value::Text(a), Value::Text(b)) if a != b => (
            ChangeKind::Regression,
            format!("outcome changed: {a} -> {b}"),
        ),
        _ if ov != nv => (ChangeKind::Changed, format!("{ov} -> {nv}")),
        _ if old.evidence != new.evidence => (
            ChangeKind::Changed,
            format!(
                "evidence {} -> {} (value {nv})",
                old.evidence.name(),
                new.evidence.name()
            ),
        ),
        _ if new.conflicts.len() > old.conflicts.len() => (
            ChangeKind::Changed,
            format!("now disagrees with {}", new.conflicts.len()),
        ),
        _ => return None,
    };
    Some(change)
}

/// The column pairs to compare: equal keys, then per identity the only unpaired column on
/// each side.
pub fn pairs(old: &Matrix, new: &Matrix) -> Vec<Pair> {
    let new_keys: BTreeSet<&str> = new.columns.iter().map(|c| c.key.as_str()).collect();
    let old_keys: BTreeSet<&str> = old.columns.iter().map(|c| c.key.as_str()).collect();
    let mut pairs: Vec<Pair> = old
        .columns
        .iter()
        .filter(|c| new_keys.contains(c.key.as_str()))
        .map(|c| Pair {
            old: c.key.clone(),
            new: c.key.clone(),
            platform: Identity::of(c).to_string(),
        })
        .collect();
    let unpaired = |m: &Matrix, other: &BTreeSet<&str>| {
        let mut by_identity: BTreeMap<Identity, Vec<String>> = BTreeMap::new();
        for c in m.columns.iter().filter(|c| !other.contains(c.key.as_str())) {
            by_identity
                .entry(Identity::of(c))
                .or_default()
                .push(c.key.clone());
        }
        by_identity
    };
    let (old_only, mut new_only) = (unpaired(old, &new_keys), unpaired(new, &old_keys));
    for (identity, olds) in old_only {
        if let ([o], Some([n])) = (olds.as_slice(), new_only.remove(&identity).as_deref()) {
            pairs.push(Pair {
                old: o.clone(),
                new: n.clone(),
                platform: identity.to_string(),
            });
        }
    }
    pairs
}

/// Every change from `old` to `new`, in listing order, over the columns [`pairs`] matches.
pub fn diff(old: &Matrix, new: &Matrix) -> Diff {
    let compared = pairs(old, new);
    let mut changes = Vec::new();
    let old_paired: BTreeSet<&str> = compared.iter().map(|p| p.old.as_str()).collect();
    let new_paired: BTreeSet<&str> = compared.iter().map(|p| p.new.as_str()).collect();
    for c in new
        .columns
        .iter()
        .filter(|c| !new_paired.contains(c.key.as_str()))
    {
        changes.push(Change {
            kind: ChangeKind::Added,
            row: None,
            column: c.key.clone(),
            what: format!("platform column only in the new file ({})", Identity::of(c)),
        });
    }
    for c in old
        .columns
        .iter()
        .filter(|c| !old_paired.contains(c.key.as_str()))
    {
        changes.push(Change {
            kind: ChangeKind::Removed,
            row: None,
            column: c.key.clone(),
            what: format!("platform column only in the old file ({})", Identity::of(c)),
        });
    }
    let row_ids: BTreeSet<&str> = old
        .rows
        .iter()
        .chain(&new.rows)
        .map(|r| r.id.as_str())
        .collect();
    for id in row_ids {
        let (before, after) = (old.row(id), new.row(id));
        for pair in &compared {
            let o = before.and_then(|r| r.cells.get(&pair.old));
            let n = after.and_then(|r| r.cells.get(&pair.new));
            if let Some((kind, what)) = change(o, n) {
                changes.push(Change {
                    kind,
                    row: Some(id.to_string()),
                    column: pair.new.clone(),
                    what,
                });
            }
        }
    }
    changes.sort_by(|a, b| (a.kind, &a.row, &a.column).cmp(&(b.kind, &b.row, &b.column)));
    Diff { compared, changes }
}

/// How a cell that may be missing on either side changed.
fn change(old: Option<&Cell>, new: Option<&Cell>) -> Option<(ChangeKind, String)> {
    match (old, new) {
        (Some(o), Some(n)) => classify(o, n),
        (None, Some(n)) => Some((
            ChangeKind::Added,
            format!("{} ({})", n.value, n.evidence.name()),
        )),
        (Some(o), None) => Some((
            ChangeKind::Removed,
            format!("was {} ({})", o.value, o.evidence.name()),
        )),
        (None, None) => None,
    }
}

/// The listing: which columns were compared under two keys, then a section per kind,
/// regressions first.
pub fn render(d: &Diff) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Compared {} platform column(s).", d.compared.len());
    for p in d.compared.iter().filter(|p| p.old != p.new) {
        let _ = writeln!(
            out,
            "  {} as {} (same platform: {})",
            p.old, p.new, p.platform
        );
    }
    if d.changes.is_empty() {
        out.push_str("No changes.\n");
        return out;
    }
    let mut current = None;
    for c in &d.changes {
        if current != Some(c.kind) {
            let n = d.changes.iter().filter(|x| x.kind == c.kind).count();
            let _ = writeln!(out, "{} ({n}):", c.kind.title());
            current = Some(c.kind);
        }
        match &c.row {
            Some(row) => {
                let _ = writeln!(out, "  {row} @ {}: {}", c.column, c.what);
            }
            None => {
                let _ = writeln!(out, "  {}: {}", c.column, c.what);
            }
        }
    }
    out
}

impl Diff {
    /// How many changes are regressions.
    pub fn regressions(&self) -> usize {
        self.changes
            .iter()
            .filter(|c| c.kind == ChangeKind::Regression)
            .count()
    }
}
