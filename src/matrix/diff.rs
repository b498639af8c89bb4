//! What changed between two matrices (or reports), as a list a reviewer reads: regressions
//! first, then improvements, other changes, additions and removals.
//!
//! A regression is a capability that went from available to absent, a case whose verdict went
//! to `fail`, or a case whose outcome changed without its verdict going back to passing. Perf
//! ratios are noisy: a change over 10% is listed as a change, never as a regression.

use std::collections::BTreeSet;
use std::fmt::Write;

use super::model::{Cell, Matrix, Row, Value};

/// The listing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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

#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub kind: ChangeKind,
    /// `None` for a whole column added or removed.
    pub row: Option<String>,
    pub column: String,
    pub what: String,
}

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

/// Gives `new`'s only column the key of `old`'s only column, so that two single reports
/// compare as one platform even when their keys differ (another host, a libc upgrade).
pub fn align_single_columns(old: &Matrix, new: &mut Matrix) {
    let ([old_col], [new_col]) = (old.columns.as_slice(), new.columns.as_mut_slice()) else {
        return;
    };
    new_col.key.clone_from(&old_col.key);
    for row in &mut new.rows {
        row.cells = std::mem::take(&mut row.cells)
            .into_values()
            .map(|cell| (old_col.key.clone(), cell))
            .collect();
    }
}

/// Every change from `old` to `new`, in listing order.
pub fn diff<'a>(old: &'a Matrix, new: &'a Matrix) -> Vec<Change> {
    let mut changes = Vec::new();
    let old_cols: BTreeSet<&str> = old.columns.iter().map(|c| c.key.as_str()).collect();
    let new_cols: BTreeSet<&str> = new.columns.iter().map(|c| c.key.as_str()).collect();
    for key in new_cols.difference(&old_cols) {
        changes.push(Change {
            kind: ChangeKind::Added,
            row: None,
            column: key.to_string(),
            what: String::from("new platform column"),
        });
    }
    for key in old_cols.difference(&new_cols) {
        changes.push(Change {
            kind: ChangeKind::Removed,
            row: None,
            column: key.to_string(),
            what: String::from("platform column gone"),
        });
    }
    let common: BTreeSet<&str> = old_cols.intersection(&new_cols).copied().collect();
    let row_ids: BTreeSet<&str> = old
        .rows
        .iter()
        .chain(&new.rows)
        .map(|r| r.id.as_str())
        .collect();
    for id in row_ids {
        let (before, after) = (old.row(id), new.row(id));
        for &column in &common {
            let cell = |row: Option<&'a Row>| row.and_then(|r| r.cells.get(column));
            let change = match (cell(before), cell(after)) {
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
            };
            if let Some((kind, what)) = change {
                changes.push(Change {
                    kind,
                    row: Some(id.to_string()),
                    column: column.to_string(),
                    what,
                });
            }
        }
    }
    changes.sort_by(|a, b| (a.kind, &a.row, &a.column).cmp(&(b.kind, &b.row, &b.column)));
    changes
}

/// The listing: a section per kind, regressions first.
pub fn render(changes: &[Change]) -> String {
    let mut out = String::new();
    if changes.is_empty() {
        out.push_str("No changes.\n");
        return out;
    }
    let mut current = None;
    for c in changes {
        if current != Some(c.kind) {
            let n = changes.iter().filter(|x| x.kind == c.kind).count();
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

pub fn has_regressions(changes: &[Change]) -> bool {
    changes.iter().any(|c| c.kind == ChangeKind::Regression)
}
