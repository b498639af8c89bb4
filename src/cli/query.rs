//! `spawnmatrix query TEXT`: one feature's summary row, per platform family: since which
//! release, how that is known, and the release before it; then how each family reports
//! errors. Built from `targets/` (stored reports and documented claims), or from `--matrix`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use spawnmatrix::matrix::model::Boundary;
use spawnmatrix::matrix::render::summary::{answer_for, letters};
use spawnmatrix::matrix::summary::{Answer, Summary, SummaryRow};
use spawnmatrix::matrix::{load, query, summary};

use super::CliResult;

#[derive(clap::Args)]
#[command(after_help = "Exit status: 0 found, 1 nothing matches, 2 bad input.")]
pub struct Args {
    /// A function, flag or case, or part of one: `addchdir_np`, `SETSID`, `exec-enoent`.
    /// Without it, the whole summary.
    text: Option<String>,
    /// Print JSON (the matching summary rows and the error rows) instead of text.
    #[arg(long)]
    json: bool,
    /// Every release behind each answer, not only the boundary.
    #[arg(long)]
    history: bool,
    /// The platform families and stored reports [default: the working tree's targets/].
    #[arg(long, value_name = "DIR")]
    targets: Option<PathBuf>,
    /// Read this matrix.json instead of building one from targets/.
    #[arg(long, value_name = "FILE", conflicts_with = "targets")]
    matrix: Option<PathBuf>,
}

/// The newest release with another value than the current one: what bounds "since" from
/// below.
fn before(a: &Answer) -> Option<String> {
    a.boundary.as_ref()?;
    let current = &a.history.last()?.value;
    let i = a.history.iter().rposition(|s| s.value != *current)?;
    let prev = &a.history[i];
    Some(format!(
        "{} {} ({})",
        prev.release,
        prev.value,
        letters(&prev.evidence)
    ))
}

/// One row, a line per family; `known_only` leaves out families that know nothing of it.
fn row_text(s: &Summary, row: &SummaryRow, history: bool, known_only: bool, out: &mut String) {
    let _ = writeln!(out, "{}", row.id);
    if let Some(title) = &row.title {
        let _ = writeln!(out, "  {title}");
    }
    let width = s.families.iter().map(|f| f.title.len()).max().unwrap_or(0);
    for f in &s.families {
        let Some(a) = answer_for(row, &f.id) else {
            if !known_only {
                let _ = writeln!(out, "  {:width$}  ?", f.title);
            }
            continue;
        };
        let mut line = format!(
            "  {:width$}  {:<28} {}",
            f.title,
            a.text,
            letters(&a.evidence)
        );
        if a.disagreement {
            line.push_str("  ! evidence disagrees");
        }
        if let Some(b) = before(a) {
            let _ = write!(line, "  (before: {b})");
        }
        let _ = writeln!(out, "{}", line.trim_end());
        let pad = " ".repeat(width + 4);
        // An exact boundary says all in its number; the others say what bounds them.
        if let Some(b) = a
            .boundary
            .as_ref()
            .filter(|b| !matches!(b, Boundary::Exact { .. }))
        {
            let _ = writeln!(out, "{pad}boundary: {}", boundary_words(b));
        }
        for state in &a.states {
            let note = state
                .note
                .as_deref()
                .map(|n| format!(": {n}"))
                .unwrap_or_default();
            let _ = writeln!(out, "{pad}{}{note}", state.short());
            let _ = writeln!(out, "{pad}  source: {}", state.source);
        }
        if history {
            for source in &a.sources {
                let _ = writeln!(out, "{pad}source: {source}");
            }
            let steps: Vec<String> = a
                .history
                .iter()
                .map(|h| format!("{} {} {}", h.release, h.value, letters(&h.evidence)))
                .collect();
            let _ = writeln!(out, "  {:width$}    {}", "", steps.join(", "));
        }
    }
}

/// Which kind of boundary, in words.
fn boundary_words(b: &Boundary) -> String {
    match b {
        Boundary::Exact {
            release,
            after: None,
        } => format!("exact, {release} (documented as the first)"),
        Boundary::Exact {
            release,
            after: Some(a),
        } => {
            format!("exact, {release} ({a} is known to differ)")
        }
        Boundary::Interval { after, first, last } => {
            let after = after
                .as_deref()
                .map(|a| format!("{a} is known to differ, "))
                .unwrap_or_default();
            format!("interval, first release in {first}–{last} ({after}{last} is known to have it)")
        }
        Boundary::AtMost { release } => {
            format!("at most {release} ({release} is known to have it; earlier releases unknown)")
        }
    }
}

pub fn run(args: Args) -> CliResult {
    let matrix = match &args.matrix {
        Some(path) => load::parse_matrix(
            path,
            &std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )?,
        None => super::stored::matrix(&super::stored::targets_dir(args.targets.as_deref())?)?,
    };
    let s = summary::build(&matrix);
    let Some(text) = &args.text else {
        match args.json {
            true => print!("{}", spawnmatrix::matrix::render::summary::json(&s)),
            false => print!("{}", spawnmatrix::matrix::render::summary::markdown(&s)),
        }
        return Ok(ExitCode::SUCCESS);
    };
    let rows = query::find(&s, text);
    let errors: Vec<&SummaryRow> = s
        .sections
        .iter()
        .filter(|sec| sec.id == "errors")
        .flat_map(|sec| &sec.rows)
        .filter(|r| !rows.iter().any(|m| m.id == r.id))
        .collect();
    if rows.is_empty() {
        eprintln!(
            "spawnmatrix query: nothing matches {text:?}; closest: {}",
            query::suggestions(&s, text, 3).join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    if args.json {
        let value = serde_json::json!({
            "query": text,
            "families": s.families.iter().map(|f| serde_json::json!({"id": f.id, "title": f.title})).collect::<Vec<_>>(),
            "matches": rows,
            "errors": errors,
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    for row in &rows {
        row_text(&s, row, args.history, false, &mut out);
        out.push('\n');
    }
    if !errors.is_empty() {
        let _ = writeln!(out, "How the raw libc reports errors (documented cases; families with nothing known left out):");
        for row in errors {
            row_text(&s, row, args.history, true, &mut out);
        }
    }
    let _ = writeln!(
        out,
        "\nEvidence: R run, L link, D doc (with source). Every cell: out/index.html or MATRIX.md."
    );
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}
