//! The baseline view as Markdown (the end of `docs/SUMMARY.md`): one table per family, one
//! row per feature, one column per baseline of that family; then each baseline's release
//! and how that is known.

use std::fmt::Write;

use crate::matrix::summary::Summary;
use crate::published::baseline_view::{Availability, BaselineView};

fn mark(value: Availability) -> &'static str {
    match value {
        Availability::Yes => "yes",
        Availability::No => "no",
        Availability::Unknown => "?",
    }
}

/// The section, starting with a level-2 heading.
pub fn markdown(view: &BaselineView, summary: &Summary) -> String {
    let mut out = String::from("\n## Baselines\n\n");
    out.push_str(
        "Each baseline (`targets/baselines.yaml`) is one release of a family; its answer is the\n\
         family's at that release: `yes`/`no` where the evidence covers it, `?` where it does not\n\
         (older than the oldest release known, after a newest `no`, or inside a boundary that is\n\
         only known as an interval). `spawnmatrix query FEATURE --baseline ID` says why.\n\n",
    );
    let mut families: Vec<&str> = Vec::new();
    for b in &view.baselines {
        if !families.contains(&b.family.as_str()) {
            families.push(&b.family);
        }
    }
    for family in families {
        let title = summary.family(family).map_or(family, |f| f.title.as_str());
        let ids: Vec<&str> = view
            .baselines
            .iter()
            .filter(|b| b.family == family)
            .map(|b| b.id.as_str())
            .collect();
        let _ = writeln!(out, "### {title} baselines\n");
        let _ = writeln!(out, "| features | {} |", ids.join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(ids.len()));
        for row in &view.rows {
            let cells: Vec<&str> = ids
                .iter()
                .map(|id| view.answer(&row.id, id).map_or("?", |a| mark(a.value)))
                .collect();
            let label = row.id.split_once('.').map_or(row.id.as_str(), |(_, r)| r);
            let _ = writeln!(out, "| `{label}` | {} |", cells.join(" | "));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "### What each baseline stands for\n");
    for b in &view.baselines {
        let _ = writeln!(
            out,
            "- `{}`: {}, {} {} ({}: {})",
            b.id,
            b.title,
            summary
                .family(&b.family)
                .map_or(b.family.as_str(), |f| f.title.as_str()),
            b.release,
            b.evidence.name(),
            b.cite
        );
    }
    out
}
