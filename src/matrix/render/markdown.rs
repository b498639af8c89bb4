//! `MATRIX.md`: the summary first (`render::summary`), then one table per group, readable on a forge. Each cell shows its value and its
//! evidence (✅ run, 🔗 link, 📄 doc); notes, sources and disagreements are footnotes.

use std::fmt::Write;

use crate::matrix::model::{Cell, Column, Evidence, Matrix, Row, Value};

pub fn icon(e: Evidence) -> &'static str {
    match e {
        Evidence::Run => "✅",
        Evidence::Link => "🔗",
        Evidence::Doc => "📄",
    }
}

/// Footnotes, numbered in order of first use; the same text gets the same number.
#[derive(Default)]
struct Notes(Vec<String>);

impl Notes {
    fn mark(&mut self, text: String) -> String {
        let n = match self.0.iter().position(|t| *t == text) {
            Some(i) => i + 1,
            None => {
                self.0.push(text);
                self.0.len()
            }
        };
        format!("[^{n}]")
    }
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn value_text(v: &Value) -> String {
    escape(&v.to_string())
}

/// The full description of a column, for the legend.
pub fn describe(c: &Column) -> String {
    let p = &c.platform;
    let mut parts = vec![p.os.clone()];
    parts.extend(p.os_version.clone());
    parts.push(p.arch.clone());
    let mut libc = p.libc.name.clone();
    if let Some(v) = &p.libc.version {
        libc.push(' ');
        libc.push_str(v);
    }
    parts.push(libc);
    let mut place = p.provenance.kind.clone();
    if let Some(image) = &p.provenance.image {
        place.push(' ');
        place.push_str(image);
    }
    parts.push(place);
    parts.join(", ")
}

fn cell_text(cell: &Cell, notes: &mut Notes) -> String {
    let mut out = format!("{} {}", value_text(&cell.value), icon(cell.evidence));
    if let Some(verdict) = cell.verdict.as_deref().filter(|v| *v != "pass") {
        let _ = write!(out, " ({})", escape(verdict));
    }
    if let Some(note) = &cell.note {
        out.push_str(&notes.mark(note.clone()));
    }
    if let Some(source) = &cell.source {
        out.push_str(&notes.mark(format!("Source: {source}")));
    }
    if !cell.conflicts.is_empty() {
        let others: Vec<String> = cell
            .conflicts
            .iter()
            .map(|a| format!("{} says {} ({})", a.evidence.name(), a.value, a.origin))
            .collect();
        let text = format!(
            "Disagreement: {} says {}; {}",
            cell.evidence.name(),
            cell.value,
            others.join("; ")
        );
        out.push_str(" ⚠️");
        out.push_str(&notes.mark(text));
    }
    out
}

/// The row's name inside its group: `posix_spawn`, `exec-enoent · libc`.
pub fn row_label(row: &Row) -> String {
    let rest = row.id.split_once('.').map_or(row.id.as_str(), |(_, r)| r);
    match row.id.starts_with("cases.") {
        true => rest
            .rsplit_once('.')
            .map_or(rest.to_string(), |(case, subject)| {
                format!("{case} · {subject}")
            }),
        false => rest.to_string(),
    }
}

pub fn render(m: &Matrix) -> String {
    let mut out = String::new();
    let mut notes = Notes::default();
    let _ = writeln!(out, "# spawnmatrix capability matrix\n");
    let _ = writeln!(
        out,
        "Generated {} by spawnmatrix {}. Each cell: value, then how it is known: \
         ✅ run (observed), 🔗 link (linked against a sysroot), 📄 doc (documented, with source). \
         ⚠️ marks a disagreement between evidence; an empty cell means nothing is known.\n",
        m.generated_at, m.suite_version
    );
    out.push_str(&super::summary::markdown(&crate::matrix::summary::build(m)));
    let _ = writeln!(out, "\n# Full tables\n");
    let _ = writeln!(out, "## Platforms\n");
    let _ = writeln!(out, "| Column | Evidence | Platform | From |");
    let _ = writeln!(out, "|---|---|---|---|");
    for c in &m.columns {
        let _ = writeln!(
            out,
            "| {} | {} {} | {} | {} |",
            escape(&c.label),
            icon(c.evidence),
            c.evidence.name(),
            escape(&describe(c)),
            escape(&c.origins.join(", "))
        );
    }
    let disagreements: Vec<String> = m.disagreements().map(|d| d.describe()).collect();
    if !disagreements.is_empty() {
        let _ = writeln!(out, "\n## Disagreements\n");
        for d in disagreements {
            let _ = writeln!(out, "- ⚠️ {}", escape(&d));
        }
    }
    for group in &m.groups {
        let rows: Vec<&Row> = m.rows.iter().filter(|r| r.group == group.id).collect();
        let columns: Vec<&Column> = m
            .columns
            .iter()
            .filter(|c| rows.iter().any(|r| r.cells.contains_key(&c.key)))
            .collect();
        let _ = writeln!(out, "\n## {}\n", escape(&group.title));
        let headers: Vec<String> = columns.iter().map(|c| escape(&c.label)).collect();
        let _ = writeln!(out, "| {} | {} |", group.id, headers.join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(columns.len()));
        for row in rows {
            let cells: Vec<String> = columns
                .iter()
                .map(|c| {
                    row.cells
                        .get(&c.key)
                        .map_or_else(String::new, |cell| cell_text(cell, &mut notes))
                })
                .collect();
            let _ = writeln!(out, "| `{}` | {} |", row_label(row), cells.join(" | "));
        }
    }
    if !notes.0.is_empty() {
        out.push('\n');
        for (i, text) in notes.0.iter().enumerate() {
            let _ = writeln!(out, "[^{}]: {}", i + 1, escape(text));
        }
    }
    out
}
