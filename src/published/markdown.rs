//! The baseline view as Markdown (the end of `docs/SUMMARY.md`): one table per family, one
//! row per feature, one column per baseline of that family; then each baseline's release
//! and how that is known.

use std::fmt::Write;

use crate::matrix::render::summary::letters;
use crate::matrix::summary::Summary;
use crate::published::baseline_view::{Availability, BaselineAnswer, BaselineView};
use crate::published::{Published, PublishedSection};

/// A baseline cell: `?` when unknown, else the answer with its states' tags.
fn cell(a: &BaselineAnswer) -> String {
    match a.value {
        Availability::Unknown => String::from("?"),
        _ => a.text().replace('|', "\\|"),
    }
}

/// The section, starting with a level-2 heading.
pub fn markdown(view: &BaselineView, summary: &Summary) -> String {
    let mut out = String::from("\n## Baselines\n\n");
    out.push_str(
        "Each baseline (`targets/baselines.yaml`) is one release of a family; its answer is the\n\
         family's at that release: `yes`/`no` where the evidence covers it, `?` where it does not\n\
         (older than the oldest release known, after a newest `no`, or inside a boundary that is\n\
         only known as an interval); a `yes` carries what holds there besides (`· stub (ENOSYS)`,\n\
         `· deprecated`, `· known bug`, `· needs …`, `· header only`, `· ignored`).\n\
         `spawnmatrix query FEATURE --baseline ID` says why, with each state's note and source.\n\n",
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
            let cells: Vec<String> = ids
                .iter()
                .map(|id| {
                    view.answer(&row.id, id)
                        .map_or_else(|| String::from("?"), cell)
                })
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

/// The kernel section: each feature, the release the man pages give, and what every kernel
/// release the Linux columns ran on showed.
pub fn kernel(section: &PublishedSection, published: &Published) -> String {
    let family = published
        .families
        .iter()
        .find(|f| f.id == crate::published::kernel::FAMILY);
    let runs: Vec<&str> = family
        .into_iter()
        .flat_map(|f| &f.releases)
        .filter(|r| !r.columns.is_empty())
        .map(|r| r.release.as_str())
        .collect();
    let mut out = format!("\n## {}\n\n", section.title);
    out.push_str(
        "The first release from the kernel's man pages (D, `targets/linux-kernel/kernel.yaml`),\n\
         then what the Linux columns observed, by the kernel release they ran on (R; blank: not\n\
         probed there).\n\n",
    );
    let heads: Vec<String> = runs.iter().map(|r| format!("run on {r}")).collect();
    let _ = writeln!(out, "| feature | since | {} |", heads.join(" | "));
    let _ = writeln!(out, "|---|---|{}", "---|".repeat(runs.len()));
    for row in &section.rows {
        let Some(a) = row.answers.first() else {
            continue;
        };
        let cells: Vec<String> = runs
            .iter()
            .map(|r| {
                a.answer
                    .history
                    .iter()
                    .find(|s| {
                        s.release == *r && s.evidence.contains(&crate::matrix::model::Evidence::Run)
                    })
                    .map_or_else(String::new, |s| {
                        format!("{} {}", s.value, letters(&s.evidence))
                    })
            })
            .collect();
        let warn = if a.answer.disagreement { " !" } else { "" };
        let _ = writeln!(
            out,
            "| `{}` | {} D{warn} | {} |",
            row.label,
            a.answer.text,
            cells.join(" | ")
        );
    }
    out
}

/// The sandbox section: one column per profile (`src/sandbox/mod.rs` says what each is), one
/// row per thing done there; each cell the value with its evidence letters, and which
/// columns (libc, kernel) ran it.
pub fn sandbox(section: &PublishedSection, published: &Published) -> String {
    let prefix = format!("{}/", crate::published::sandbox::SECTION);
    let families: Vec<&crate::matrix::summary::SummaryFamily> = published
        .families
        .iter()
        .filter(|f| f.id.starts_with(&prefix))
        .collect();
    let mut out = format!("\n## {}\n\n", section.title);
    out.push_str(
        "One column per sandbox profile run here (R: run, by `spawnmatrix probe --sandbox` on the\n\
         build machine, or a whole container run under Docker's default seccomp profile,\n\
         `containers/seccomp/`; the profiles are described in `src/sandbox/mod.rs`). `raw libc`\n\
         rows are the libc's own `posix_spawn`; `error lost` means it returned 0 for a program\n\
         that does not exist. Blank: not run under that profile; `not run [?n]`: why below the\n\
         table.\n\n",
    );
    let titles: Vec<String> = families.iter().map(|f| format!("`{}`", f.title)).collect();
    let _ = writeln!(out, "| | {} |", titles.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(families.len()));
    let mut unread = crate::matrix::render::summary::ReasonMarks::unread();
    for row in &section.rows {
        let cells: Vec<String> = families
            .iter()
            .map(
                |f| match row.answers.iter().find(|a| a.answer.family == f.id) {
                    Some(a) => format!("{} {}", a.answer.text, letters(&a.answer.evidence)),
                    None => unread
                        .mark(f, &row.id, &row.label)
                        .map(|m| format!("not run {m}"))
                        .unwrap_or_default(),
                },
            )
            .collect();
        let _ = writeln!(out, "| {} | {} |", row.label, cells.join(" | "));
    }
    out.push('\n');
    for line in unread.lines() {
        let _ = writeln!(out, "{line}");
    }
    for f in &families {
        let runs: Vec<&str> = f.releases.iter().map(|r| r.release.as_str()).collect();
        let _ = writeln!(out, "- `{}`: run with {}", f.title, runs.join(", "));
    }
    out
}
