//! `spawnmatrix query TEXT`: each matching summary row, per platform family: since which
//! release, how that is known, and the release before it; then how each family reports
//! errors. `--baseline ID` answers for one baseline instead (`manylinux2014`: available, not,
//! or unknown, and why).
//!
//! The data: `--targets DIR` (stored reports and documented claims), else `--matrix FILE`,
//! else the working tree's `targets/` when run inside a checkout, else the published summary
//! embedded in the binary at build time (`docs/summary.json`), so an installed binary answers
//! anywhere.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use spawnmatrix::matrix::model::{Boundary, State, Value};
use spawnmatrix::matrix::render::summary::{answer_for, letters, works};
use spawnmatrix::matrix::summary::{Answer, Summary, SummaryFamily, SummaryRow};
use spawnmatrix::matrix::version::Release;
use spawnmatrix::matrix::{load, query, summary};
use spawnmatrix::published::baseline_view::{Availability, BaselineView};
use spawnmatrix::published::Published;

/// The published summary as it was when this binary was built.
const EMBEDDED: &str = include_str!("../../docs/summary.json");

/// [`EMBEDDED`], parsed.
pub(super) fn embedded() -> Result<Published, spawnmatrix::matrix::MatrixError> {
    Published::parse(
        std::path::Path::new("<embedded docs/summary.json>"),
        EMBEDDED,
    )
}

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
    /// Answer for one baseline (`manylinux2014`, `debian-12`, `alpine-3.18`,
    /// `android-api-34`, `macos-11`; see targets/baselines.yaml): available, not, or unknown.
    #[arg(long, value_name = "ID")]
    baseline: Option<String>,
    /// The platform families and stored reports [default: the working tree's targets/, else
    /// the summary embedded at build time].
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

/// The value of the newest exact release: what holds today.
fn current(a: &Answer) -> Option<&Value> {
    a.history
        .iter()
        .rev()
        .find(|s| matches!(Release::parse(&s.release), Some(Release::Exact(_))))
        .map(|s| &s.value)
}

/// One row, a line per family; `known_only` leaves out families that know nothing of it.
/// A feature row says first whether the call works there (`works?`), then since when and how
/// that is known.
fn row_text(s: &Summary, row: &SummaryRow, history: bool, known_only: bool, out: &mut String) {
    let _ = writeln!(out, "{}", row.id);
    if let Some(title) = &row.title {
        let _ = writeln!(out, "  {title}");
    }
    let width = s.families.iter().map(|f| f.title.len()).max().unwrap_or(0);
    let feature = row.id.starts_with("functions.") || row.id.starts_with("flags.");
    let verdict = |a: &Answer| works(current(a), &a.states);
    let vw = row
        .answers
        .iter()
        .map(|a| verdict(a).chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, 32);
    let tw = row
        .answers
        .iter()
        .map(|a| a.text.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, 40);
    if feature {
        let _ = writeln!(
            out,
            "  {:width$}  {:vw$}  {:tw$}  how known",
            "", "works?", "since"
        );
    }
    for f in &s.families {
        let Some(a) = answer_for(row, &f.id) else {
            if !known_only && spawnmatrix::matrix::summary::has_cell(&f.id, &row.id) {
                let why = f.unread_why(&row.id).unwrap_or("nothing known");
                let _ = writeln!(out, "  {:width$}  ?  {why}", f.title);
            }
            continue;
        };
        let mut line = match feature {
            // A verdict wider than its column says all it has to on a line of its own.
            true if verdict(a).chars().count() > vw => format!(
                "  {:width$}  {}\n  {:width$}  {:vw$}  {:tw$}  {}",
                f.title,
                verdict(a),
                "",
                "",
                a.text,
                letters(&a.evidence)
            ),
            true => format!(
                "  {:width$}  {:vw$}  {:tw$}  {}",
                f.title,
                verdict(a),
                a.text,
                letters(&a.evidence)
            ),
            false => format!(
                "  {:width$}  {:<28} {}",
                f.title,
                a.text,
                letters(&a.evidence)
            ),
        };
        if a.disagreement {
            line.push_str("  ! evidence disagrees");
        }
        if let Some(b) = before(a) {
            let _ = write!(line, "  (before: {b})");
        }
        let _ = writeln!(out, "{}", line.trim_end());
        let pad = " ".repeat(width + 4);
        // An exact boundary says all in its number; the others say what bounds them.
        if let Some(b) = a.range() {
            let _ = writeln!(out, "{pad}boundary: {}", boundary_words(b));
            if let Some(why) = f.unsettled_why(&row.id) {
                let _ = writeln!(out, "{pad}  {why}");
            }
        }
        if let (Some(through), Some(from)) = (&a.through, &a.unknown_from) {
            let _ = writeln!(
                out,
                "{pad}known through {through}; {from} changed a function the case calls, and nothing was read there"
            );
        }
        state_lines(&a.states, &pad, out);
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

/// Each state on a line of its own with its note, and its source under it.
fn state_lines(states: &[State], pad: &str, out: &mut String) {
    for state in states {
        let note = state
            .note
            .as_deref()
            .map(|n| format!(": {n}"))
            .unwrap_or_default();
        let _ = writeln!(out, "{pad}{}{note}", state.short());
        let _ = writeln!(out, "{pad}  source: {}", state.source);
    }
}

/// How to read an answer, after the rows.
const LEGEND: &str = "\
works?: whether the call works in the newest release known (a stub, a build condition or a
  header-only name says so); since: 2.29 the first release, 13.1–13.2 it lies there, ≤15
  only 15 is known to have it; no (8.3–15.1): absent in the releases read; ? nothing known
  (? not read here: the reason no source for it can be read from here).
How known: R run here, L linked against the libc, D documented (source given with --history).
Every release behind an answer: --history; every cell: `spawnmatrix` in a checkout writes
out/index.html.
";

/// Which kind of boundary, in words.
fn boundary_words(b: &Boundary) -> String {
    // `functions.posix_spawn` -> `posix_spawn`.
    let row = |f: &str| f.split_once('.').map_or(f, |(_, n)| n).to_string();
    match b {
        Boundary::Exact {
            release,
            after: None,
            floor: None,
        } => format!("exact, {release} (documented as the first)"),
        Boundary::Exact {
            release,
            after: None,
            floor: Some(f),
        } => format!(
            "exact, {release} ({} began at {release}; nothing here is older)",
            row(f)
        ),
        Boundary::Exact {
            release,
            after: Some(a),
            ..
        } => {
            format!("exact, {release} ({a} is known to differ)")
        }
        Boundary::Interval {
            after,
            first,
            last,
            floor,
        } => {
            let after = match (after, floor) {
                (Some(a), _) => format!("{a} is known to differ, "),
                (None, Some(f)) => format!("{} began at {first}, ", row(f)),
                (None, None) => String::new(),
            };
            format!("interval, first release in {first}–{last} ({after}{last} is known to have it)")
        }
        Boundary::AtMost { release } => {
            format!("at most {release} ({release} is known to have it; earlier releases unknown)")
        }
    }
}

/// Where the answers come from, and the data.
fn data(args: &Args) -> Result<(String, Published), Box<dyn std::error::Error>> {
    if let Some(dir) = &args.targets {
        let targets = super::stored::targets_dir(Some(dir))?;
        return Ok((
            targets.display().to_string(),
            super::publish::build(&targets)?.published,
        ));
    }
    if let Some(path) = &args.matrix {
        let matrix = load::parse_matrix(
            path,
            &std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )?;
        let s = summary::build(&matrix);
        let from = spawnmatrix::published::GeneratedFrom {
            targets_tree: String::new(),
            generator: String::new(),
            newest_evidence: matrix.generated_at.clone(),
            generated_at: String::new(),
        };
        return Ok((
            path.display().to_string(),
            Published::build(&s, &matrix, None, None, from),
        ));
    }
    let targets = spawnmatrix::worktree::targets_dir();
    if std::env::var_os("SPAWNMATRIX_TARGETS").is_some() || targets.is_dir() {
        let targets = super::stored::targets_dir(Some(&targets))?;
        return Ok((
            targets.display().to_string(),
            super::publish::build(&targets)?.published,
        ));
    }
    let published = embedded()?;
    let version = published.data_version.clone().unwrap_or_default();
    Ok((
        format!("the summary built into this binary (data version {version})"),
        published,
    ))
}

/// One row's answer for one baseline, with the family answer it is read from.
fn baseline_text(s: &Summary, view: &BaselineView, id: &str, row: &SummaryRow, out: &mut String) {
    let Some(b) = view.baseline(id) else { return };
    let family = s
        .family(&b.family)
        .map_or(b.family.as_str(), |f| f.title.as_str());
    let answer = view.answer(&row.id, &b.id);
    let (value, why) = answer.map_or_else(
        || (String::from("unknown"), "not a feature row"),
        |a| (a.text(), a.why.as_str()),
    );
    let fam = answer_for(row, &b.family).map_or_else(
        || String::from("?"),
        |a| format!("{} {}", a.text, letters(&a.evidence)),
    );
    // The line a maintainer reads first is whether the call will work at that release: a
    // stub is "no: a stub, every call fails with ENOSYS", never the table's "yes · stub".
    let verdict = match answer {
        Some(a) if a.value == Availability::Yes => works(Some(&Value::Bool(true)), &a.states),
        Some(a) if a.value == Availability::No => String::from("no"),
        _ => String::from("unknown (nothing known at this release)"),
    };
    // Where states qualify the yes, the range reads "present", not "yes".
    let why = match answer {
        Some(a) if !a.states.is_empty() => why
            .strip_prefix("yes ")
            .map_or_else(|| why.to_string(), |rest| format!("present {rest}")),
        _ => why.to_string(),
    };
    let _ = writeln!(out, "{}", row.id);
    let _ = writeln!(out, "  {} = {family} {}: {verdict}", b.title, b.release);
    let _ = writeln!(
        out,
        "    baseline cell: {value}; {why} ({family} answer: {fam})"
    );
    state_lines(answer.map_or(&[], |a| a.states.as_slice()), "    ", out);
}

/// `--baseline`: each row's answer for the baseline, as text or JSON.
fn baseline_answers(
    args: &Args,
    s: &Summary,
    view: &BaselineView,
    id: &str,
    text: &str,
    rows: &[&SummaryRow],
    origin: &str,
) -> CliResult {
    let Some(b) = view.baseline(id) else {
        return Ok(ExitCode::from(2));
    };
    if args.json {
        let answers: Vec<serde_json::Value> = rows
            .iter()
            .map(|row| {
                let a = view.answer(&row.id, &b.id);
                serde_json::json!({
                    "row": row.id,
                    "value": a.map_or("unknown", |a| a.value.name()),
                    "why": a.map(|a| a.why.as_str()),
                    "family_answer": answer_for(row, &b.family),
                })
            })
            .collect();
        let value = serde_json::json!({
            "query": text,
            "baseline": b,
            "data": {"from": origin},
            "answers": answers,
        });
        outln!("{}", serde_json::to_string_pretty(&value)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    for row in rows {
        baseline_text(s, view, &b.id, row, &mut out);
    }
    let _ = writeln!(
        out,
        "\n{} = {} {}; how that release is known: {}, {}{}",
        b.id,
        b.family,
        b.release,
        b.evidence.name(),
        b.cite,
        b.note
            .as_deref()
            .map_or_else(String::new, |n| format!("; {n}"))
    );
    let _ = writeln!(out, "Data: {origin}.");
    out!("{out}")?;
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: Args) -> CliResult {
    let (origin, published) = data(&args)?;
    let s = published.summary();
    if let Some(id) = &args.baseline {
        let view = published.baselines.as_ref();
        if view.and_then(|v| v.baseline(id)).is_none() {
            let known: Vec<&str> = view
                .into_iter()
                .flat_map(|v| &v.baselines)
                .map(|b| b.id.as_str())
                .collect();
            eprintln!(
                "spawnmatrix query: no baseline {id:?} in {origin}; known: {}",
                match known.is_empty() {
                    true => String::from("none"),
                    false => known.join(", "),
                }
            );
            return Ok(ExitCode::from(2));
        }
    }
    let all_features;
    let text = match (&args.text, &args.baseline) {
        (Some(text), _) => text.as_str(),
        (None, Some(_)) => {
            all_features = String::new();
            all_features.as_str()
        }
        (None, None) => {
            match args.json {
                true => out!("{}", spawnmatrix::matrix::render::summary::json(&s))?,
                false => out!("{}", spawnmatrix::matrix::render::summary::markdown(&s))?,
            }
            return Ok(ExitCode::SUCCESS);
        }
    };
    let rows: Vec<&SummaryRow> = match text.is_empty() {
        true => s
            .sections
            .iter()
            .filter(|sec| sec.id == "features")
            .flat_map(|sec| &sec.rows)
            .collect(),
        false => query::find(&s, text),
    };
    if let (Some(id), Some(view)) = (&args.baseline, published.baselines.as_ref()) {
        return baseline_answers(&args, &s, view, id, text, &rows, &origin);
    }
    // The error rows of the cases that call a matched function: what the call does when it
    // fails (none for a name no case calls).
    let errors: Vec<&SummaryRow> = s
        .sections
        .iter()
        .filter(|sec| sec.id == "errors")
        .flat_map(|sec| &sec.rows)
        .filter(|r| !rows.iter().any(|m| m.id == r.id))
        .filter(|r| rows.iter().any(|m| r.uses.contains(&m.id)))
        .collect();
    if rows.is_empty() {
        eprintln!(
            "spawnmatrix query: nothing matches {text:?}; closest: {}",
            query::suggestions(&s, text, 3).join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    if args.json {
        // The cells of the rows shown whose family says why they know less: a `?` cell's
        // `unread`, a ranged first release's `unsettled`.
        let shown: Vec<&SummaryRow> = rows.iter().copied().chain(errors.iter().copied()).collect();
        type Pick = fn(&SummaryFamily, &SummaryRow) -> Option<serde_json::Value>;
        let reasons = |pick: Pick| -> Vec<serde_json::Value> {
            shown
                .iter()
                .flat_map(|r| s.families.iter().filter_map(move |f| pick(f, r)))
                .collect()
        };
        let unread = reasons(|f, r| {
            let why = f.unread_why(&r.id)?;
            answer_for(r, &f.id).is_none().then(
                || serde_json::json!({"row": r.id, "family": f.id, "answer": "?", "why": why}),
            )
        });
        let unsettled = reasons(|f, r| {
            let why = f.unsettled_why(&r.id)?;
            let since = answer_for(r, &f.id)?.since.as_deref()?;
            Some(serde_json::json!({"row": r.id, "family": f.id, "since": since, "why": why}))
        });
        let value = serde_json::json!({
            "query": text,
            "unread": unread,
            "unsettled": unsettled,
            "families": s.families.iter().map(|f| serde_json::json!({"id": f.id, "title": f.title})).collect::<Vec<_>>(),
            "data": {"from": origin, "data_version": published.data_version},
            "matches": published.rows().filter(|r| rows.iter().any(|m| m.id == r.id)).collect::<Vec<_>>(),
            "errors": published.rows().filter(|r| errors.iter().any(|m| m.id == r.id)).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&value)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    for row in &rows {
        row_text(&s, row, args.history, false, &mut out);
        out.push('\n');
    }
    if !errors.is_empty() {
        let _ = writeln!(
            out,
            "How the raw libc reports errors in the cases that call it (families with nothing known left out):"
        );
        for row in errors {
            row_text(&s, row, args.history, true, &mut out);
        }
        out.push('\n');
    }
    out.push_str(LEGEND);
    let _ = writeln!(out, "Data: {origin}.");
    out!("{out}")?;
    Ok(ExitCode::SUCCESS)
}
