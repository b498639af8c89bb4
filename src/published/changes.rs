//! What changed between two published summaries: rows and families added or removed, every
//! answer that changed (old → new, with the sources and notes that now stand behind it), and
//! baseline answers; `docs/CHANGES.md` is its Markdown, newest release first.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::{Published, PublishedAnswer, Step};
use crate::matrix::render::summary::letters;

/// One answer that changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellChange {
    pub row: String,
    pub family: String,
    /// `2.29 LD`; `None`: the family knew nothing of the row.
    pub old: Option<String>,
    pub new: Option<String>,
    /// What the new answer rests on: its sources and notes, or its releases.
    pub why: String,
}

/// One baseline answer that changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BaselineChange {
    pub row: String,
    pub baseline: String,
    pub old: Option<String>,
    pub new: Option<String>,
    pub why: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SummaryDiff {
    pub old_version: Option<String>,
    pub old_format: Option<u32>,
    pub new_format: u32,
    pub families_added: Vec<String>,
    pub families_removed: Vec<String>,
    pub rows_added: Vec<String>,
    pub rows_removed: Vec<String>,
    pub cells: Vec<CellChange>,
    pub baselines_added: Vec<String>,
    pub baselines_removed: Vec<String>,
    pub baseline_cells: Vec<BaselineChange>,
    /// Answers whose text stayed but whose notes, sources, state or history changed.
    pub details_changed: Vec<String>,
}

fn cell_text(a: &PublishedAnswer) -> String {
    let warn = if a.answer.disagreement { " !" } else { "" };
    format!("{} {}{warn}", a.answer.text, letters(&a.answer.evidence))
}

fn why(a: &PublishedAnswer) -> String {
    let mut parts: Vec<String> = a
        .sources
        .iter()
        .map(|s| {
            s.split_once(": ")
                .map_or(s.as_str(), |(k, _)| k)
                .to_string()
        })
        .collect();
    parts.extend(a.notes.iter().cloned());
    if parts.is_empty() {
        parts = a
            .answer
            .history
            .iter()
            .map(|s| format!("{} {} {}", s.release, s.value, letters(&s.evidence)))
            .collect();
    }
    parts.join("; ")
}

fn ids(p: Option<&Published>) -> Vec<&str> {
    p.into_iter()
        .flat_map(|p| p.rows())
        .map(|r| r.id.as_str())
        .collect()
}

fn as_refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn added(old: &[&str], new: &[&str]) -> Vec<String> {
    new.iter()
        .filter(|n| !old.contains(n))
        .map(|n| n.to_string())
        .collect()
}

/// The changes from `old` (none: the first release) to `new`.
pub fn diff(old: Option<&Published>, new: &Published) -> SummaryDiff {
    let (old_rows, new_rows) = (ids(old), ids(Some(new)));
    let fam = |p: Option<&Published>| -> Vec<String> {
        p.into_iter()
            .flat_map(|p| &p.families)
            .map(|f| f.id.clone())
            .collect()
    };
    let (old_fams, new_fams) = (fam(old), fam(Some(new)));
    let mut d = SummaryDiff {
        old_version: old.and_then(|o| o.data_version.clone()),
        old_format: old.map(|o| o.format),
        new_format: new.format,
        families_added: added(&as_refs(&old_fams), &as_refs(&new_fams)),
        families_removed: added(&as_refs(&new_fams), &as_refs(&old_fams)),
        rows_added: added(&old_rows, &new_rows),
        rows_removed: added(&new_rows, &old_rows),
        ..SummaryDiff::default()
    };
    let old_answers: BTreeMap<(&str, &str), &PublishedAnswer> = old
        .into_iter()
        .flat_map(|p| p.rows())
        .flat_map(|r| {
            r.answers
                .iter()
                .map(move |a| ((r.id.as_str(), a.answer.family.as_str()), a))
        })
        .collect();
    for row in new.rows().filter(|r| old_rows.contains(&r.id.as_str())) {
        let mut families: Vec<&str> = row
            .answers
            .iter()
            .map(|a| a.answer.family.as_str())
            .collect();
        families.extend(
            old_answers
                .keys()
                .filter(|(r, f)| *r == row.id && !families.contains(f))
                .map(|(_, f)| *f)
                .collect::<Vec<_>>(),
        );
        for family in families {
            let before = old_answers.get(&(row.id.as_str(), family)).copied();
            let after = row.answers.iter().find(|a| a.answer.family == family);
            let (o, n) = (before.map(cell_text), after.map(cell_text));
            if o != n {
                d.cells.push(CellChange {
                    row: row.id.clone(),
                    family: family.to_string(),
                    old: o,
                    new: n,
                    why: after.map_or_else(|| String::from("no longer known"), why),
                });
            } else if before.map(serde_json::to_value).transpose().ok()
                != after.map(serde_json::to_value).transpose().ok()
            {
                d.details_changed.push(format!("{} / {family}", row.id));
            }
        }
    }
    let bl = |p: Option<&Published>| -> Vec<String> {
        p.and_then(|p| p.baselines.as_ref())
            .into_iter()
            .flat_map(|v| &v.baselines)
            .map(|b| b.id.clone())
            .collect()
    };
    let (old_bl, new_bl) = (bl(old), bl(Some(new)));
    d.baselines_added = added(&as_refs(&old_bl), &as_refs(&new_bl));
    d.baselines_removed = added(&as_refs(&new_bl), &as_refs(&old_bl));
    if let (Some(ov), Some(nv)) = (
        old.and_then(|o| o.baselines.as_ref()),
        new.baselines.as_ref(),
    ) {
        for row in &nv.rows {
            for a in row.answers.iter().filter(|a| old_bl.contains(&a.baseline)) {
                let before = ov.answer(&row.id, &a.baseline);
                let o = before.map(|b| b.value.name().to_string());
                let n = Some(a.value.name().to_string());
                if o != n && old_rows.contains(&row.id.as_str()) {
                    d.baseline_cells.push(BaselineChange {
                        row: row.id.clone(),
                        baseline: a.baseline.clone(),
                        old: o,
                        new: n,
                        why: a.why.clone(),
                    });
                }
            }
        }
    }
    d
}

impl SummaryDiff {
    /// The kind of release these changes make; `None` when nothing changed.
    pub fn step(&self) -> Option<Step> {
        if self.old_format.is_some_and(|f| f != self.new_format) {
            return Some(Step::Major);
        }
        let minor = !(self.families_added.is_empty()
            && self.families_removed.is_empty()
            && self.rows_added.is_empty()
            && self.rows_removed.is_empty()
            && self.cells.is_empty()
            && self.baselines_added.is_empty()
            && self.baselines_removed.is_empty()
            && self.baseline_cells.is_empty());
        match (minor, self.details_changed.is_empty()) {
            (true, _) => Some(Step::Minor),
            (false, false) => Some(Step::Patch),
            (false, true) => None,
        }
    }

    /// Losses a consumer may act on: a row or family gone, an answer gone, or a baseline that
    /// had a feature and no longer does.
    pub fn regressions(&self) -> usize {
        self.rows_removed.len()
            + self.families_removed.len()
            + self.cells.iter().filter(|c| c.new.is_none()).count()
            + self
                .baseline_cells
                .iter()
                .filter(|c| c.old.as_deref() == Some("yes"))
                .count()
    }

    /// The changes as Markdown, headed by `heading` (level 2).
    pub fn markdown(&self, heading: &str) -> String {
        let mut out = format!("## {heading}\n\n");
        match (self.old_format, self.old_version.as_deref()) {
            (None, _) => out.push_str("The first release: every row below is new.\n\n"),
            (Some(f), v) if f != self.new_format => {
                let _ = writeln!(
                    out,
                    "Format {f} → {} (previous data version: {}).\n",
                    self.new_format,
                    v.unwrap_or("none")
                );
            }
            (_, v) => {
                let _ = writeln!(out, "From {}.\n", v.unwrap_or("an unversioned release"));
            }
        }
        let list = |out: &mut String, title: &str, items: &[String]| {
            if !items.is_empty() {
                let _ = writeln!(out, "### {title} ({})\n", items.len());
                for i in items {
                    let _ = writeln!(out, "- `{i}`");
                }
                out.push('\n');
            }
        };
        list(&mut out, "Families added", &self.families_added);
        list(&mut out, "Families removed", &self.families_removed);
        list(&mut out, "Rows added", &self.rows_added);
        list(&mut out, "Rows removed", &self.rows_removed);
        let cell = |t: &Option<String>| t.clone().unwrap_or_else(|| String::from("?"));
        let esc = |t: &str| t.replace('|', "\\|").replace('\n', " ");
        if !self.cells.is_empty() {
            let _ = writeln!(out, "### Cells changed ({})\n", self.cells.len());
            let _ = writeln!(
                out,
                "| row | family | old | new | why |\n|---|---|---|---|---|"
            );
            for c in &self.cells {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} |",
                    c.row,
                    c.family,
                    esc(&cell(&c.old)),
                    esc(&cell(&c.new)),
                    esc(&c.why)
                );
            }
            out.push('\n');
        }
        list(&mut out, "Baselines added", &self.baselines_added);
        list(&mut out, "Baselines removed", &self.baselines_removed);
        if !self.baseline_cells.is_empty() {
            let _ = writeln!(
                out,
                "### Baseline answers changed ({})\n",
                self.baseline_cells.len()
            );
            let _ = writeln!(
                out,
                "| row | baseline | old | new | why |\n|---|---|---|---|---|"
            );
            for c in &self.baseline_cells {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} |",
                    c.row,
                    c.baseline,
                    cell(&c.old),
                    cell(&c.new),
                    esc(&c.why)
                );
            }
            out.push('\n');
        }
        if !self.details_changed.is_empty() {
            let _ = writeln!(
                out,
                "Notes, sources, state or release history changed without changing the answer for {} cells.\n",
                self.details_changed.len()
            );
        }
        out
    }
}

/// The fixed top of `docs/CHANGES.md`.
pub const CHANGES_HEADER: &str = "# Changes to the published data\n\n\
Generated by `spawnmatrix publish` from the difference between the new `docs/summary.json` and \
the one it replaces; do not edit. `data_version` is semver: a changed format is a major step, \
a changed cell (answer, evidence, row, family or baseline answer) a minor one, changed notes, \
sources or history a patch. `spawnmatrix diff OLD.json NEW.json` prints the same for any two \
published summaries.\n\n";

/// `docs/CHANGES.md`: the header, this release's section when it changed anything, then the
/// earlier sections of `previous` (a section for the same version is replaced).
pub fn changes_md(section: Option<(&str, String)>, previous: Option<&str>) -> String {
    let earlier: Vec<&str> = previous
        .and_then(|p| p.split_once("\n## ").map(|(_, rest)| rest))
        .map(|rest| rest.split("\n## ").collect())
        .unwrap_or_default();
    let mut out = CHANGES_HEADER.to_string();
    let version = section.as_ref().map(|(v, _)| *v);
    if let Some((_, text)) = &section {
        out.push_str(text);
    }
    for s in earlier {
        let v = s.split_whitespace().next().unwrap_or("");
        if Some(v) == version {
            continue;
        }
        out.push_str("## ");
        out.push_str(s.trim_end());
        out.push_str("\n\n");
    }
    format!("{}\n", out.trim_end())
}
