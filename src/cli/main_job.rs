//! What `spawnmatrix` does with no arguments: probe this machine live (the same report as
//! `spawnmatrix probe --json`), merge it with the stored reports (`targets/reports/*.json`)
//! and the documented claims (`targets/*/platform.yaml`), write matrix.json, MATRIX.md,
//! index.html, the live report.json and the live summary.json to one folder as one atomic
//! set, and print one screen for the person at the terminal: this machine's verdict against
//! its expectations, what its run changes in the committed table, where each output is and
//! how to open the page. The full matrix stays in the folder.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use spawnmatrix::conformance::verdict;
use spawnmatrix::matrix::docs::Docs;
use spawnmatrix::matrix::load::{self, SourcedReport};
use spawnmatrix::platform::provenance::provenance_from_env;
use spawnmatrix::published::changes::{self, SummaryDiff};
use spawnmatrix::published::{GeneratedFrom, Published};
use spawnmatrix::report::{CaseResult, Provenance, Report};

use super::stored::Tree;
use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// Folder for matrix.json, MATRIX.md, index.html and report.json (written together).
    #[arg(long, value_name = "DIR", default_value = "out")]
    out: PathBuf,
    #[command(flatten)]
    tree: Tree,
    /// Leave out the documented claims.
    #[arg(long)]
    no_docs: bool,
    /// Parent sizes for the short spawn-cost measurement that gives this machine's column its
    /// perf rows (50 spawns per method and size; see `spawnmatrix bench` for a full run).
    #[arg(long, value_name = "SIZES", default_value = "0,256M")]
    bench: String,
    /// Leave out the spawn-cost measurement (no perf rows for this machine).
    #[arg(long)]
    no_bench: bool,
    /// Exit 1 when a case of the live probe leaves its expectation (see `probe --check`);
    /// the outputs are written either way.
    #[arg(long)]
    check: bool,
}

pub fn run(args: Args) -> CliResult {
    let provenance = provenance_from_env()?.unwrap_or_else(|| Provenance {
        kind: String::from("native"),
        image: None,
        host: None,
    });
    let targets = args.tree.targets()?;
    let mut live = super::probe::build_report(provenance, Some(&args.tree))?;
    if !args.no_bench {
        live.perf = Some(super::bench::short(&args.bench)?);
    }
    live.sandbox = super::probe::sandbox_runs();
    let live_json = serde_json::to_string_pretty(&live)? + "\n";
    let mut reports = load::read_report_dir(&targets.join("reports"))?;
    let stored = reports.len();
    reports.insert(
        0,
        SourcedReport {
            origin: args.out.join("report.json"),
            report: live,
        },
    );
    let docs = match args.no_docs {
        true => Docs::default(),
        false => Docs::load(&targets)?,
    };
    let cases = args.tree.case_index()?;
    let matrix = spawnmatrix::matrix::merge_with(&reports, &docs, &cases)?;
    let views = match args.no_docs {
        true => None,
        false => Some(super::matrix::page_views(&matrix, &targets)?),
    };
    let live_summary = match args.no_docs {
        true => None,
        false => Some(live_published(&matrix, &targets)?),
    };
    let summary_json = live_summary
        .as_ref()
        .map(spawnmatrix::published::json::json)
        .unwrap_or_default();
    let mut extra = vec![("report.json", live_json.as_bytes())];
    if live_summary.is_some() {
        extra.push(("summary.json", summary_json.as_bytes()));
    }
    let outputs = super::matrix::publish(&matrix, &args.out, &extra, views.as_ref())?;
    eprintln!(
        "spawnmatrix: live probe + {stored} stored reports + {} documented families: {} columns, \
         {} rows",
        docs.families.len(),
        matrix.columns.len(),
        matrix.rows.len(),
    );
    let committed = match &live_summary {
        Some(_) => committed_published(&targets).ok(),
        None => None,
    };
    let screen = Screen {
        live: &reports[0].report,
        matrix: &matrix,
        changes: committed
            .as_ref()
            .zip(live_summary.as_ref())
            .map(|((origin, old), new)| (origin.as_str(), old, changes_of(old, new))),
        out: &args.out,
        markdown_lines: outputs.markdown.lines().count(),
    };
    out!("{}", screen.text())?;
    Ok(match args.check {
        true => super::probe::check(&reports[0].report),
        false => ExitCode::SUCCESS,
    })
}

/// The summary as `publish` would write it, with this machine's column in it.
fn live_published(
    matrix: &spawnmatrix::matrix::Matrix,
    targets: &Path,
) -> Result<Published, Box<dyn std::error::Error>> {
    let summary = spawnmatrix::matrix::summary::build(matrix);
    let kernel = spawnmatrix::published::kernel::Kernel::load(targets)?;
    let from = GeneratedFrom {
        targets_tree: String::new(),
        generator: format!("spawnmatrix {} (live)", env!("CARGO_PKG_VERSION")),
        newest_evidence: matrix.generated_at.clone(),
        generated_at: spawnmatrix::published::generation_time(),
    };
    Ok(Published::build(
        &summary,
        matrix,
        None,
        kernel.as_ref(),
        from,
    ))
}

/// The committed table: the checkout's `docs/summary.json` beside `targets/`, else the one
/// built into this binary; with where it was read.
fn committed_published(targets: &Path) -> Result<(String, Published), Box<dyn std::error::Error>> {
    let path = targets.parent().map_or_else(
        || PathBuf::from("docs/summary.json"),
        |r| r.join("docs/summary.json"),
    );
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok((path.display().to_string(), Published::parse(&path, &text)?)),
        Err(_) => Ok((
            String::from("the summary built into this binary"),
            super::query::embedded()?,
        )),
    }
}

/// The answers this machine's run changes in the committed table (baselines aside: they read
/// the committed families only).
fn changes_of(old: &Published, new: &Published) -> SummaryDiff {
    let without_baselines = |p: &Published| Published {
        baselines: None,
        ..p.clone()
    };
    changes::diff(Some(&without_baselines(old)), &without_baselines(new))
}

/// What the main job prints: one screen.
struct Screen<'a> {
    live: &'a Report,
    matrix: &'a spawnmatrix::matrix::Matrix,
    /// Where the committed table was read, its data version, and what this run changes in it.
    changes: Option<(&'a str, &'a Published, SummaryDiff)>,
    out: &'a Path,
    markdown_lines: usize,
}

/// At most this many lines of a list (failures, changed answers) on the screen.
const LIST: usize = 6;

impl Screen<'_> {
    fn text(&self) -> String {
        let mut s = String::new();
        self.machine(&mut s);
        self.verdict(&mut s);
        self.changed(&mut s);
        self.outputs(&mut s);
        s
    }

    fn machine(&self, s: &mut String) {
        let p = &self.live.platform;
        let libc = match &p.libc.version {
            Some(v) => format!("{} {v}", p.libc.name),
            None => p.libc.name.clone(),
        };
        let kernel = p
            .kernel
            .as_deref()
            .map(|k| format!(" {k}"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "spawnmatrix on this machine: {libc} on {}{kernel} ({}, {} run)",
            p.os, p.arch, p.provenance.kind
        );
        if let Some(auto) = &self.live.auto_strategy {
            let _ = writeln!(s, "  Command's Auto spawns here with {auto}.");
        }
    }

    fn verdict(&self, s: &mut String) {
        let results: Vec<(&str, &str, &CaseResult)> = self
            .live
            .cases
            .iter()
            .flat_map(|(id, subjects)| {
                subjects
                    .iter()
                    .map(move |(subject, r)| (id.as_str(), subject.as_str(), r))
            })
            .collect();
        let failed: Vec<&(&str, &str, &CaseResult)> = results
            .iter()
            .filter(|(_, _, r)| r.verdict == verdict::FAIL)
            .collect();
        let _ = writeln!(
            s,
            "\nVerdict: {} of {} case results meet this platform's expectations; {} leave them{}",
            results.len() - failed.len(),
            results.len(),
            failed.len(),
            match failed.is_empty() {
                true => ".",
                false => " (--check exits 1):",
            }
        );
        for (id, subject, r) in failed.iter().take(LIST) {
            let _ = writeln!(s, "  {id} ({subject}): {}", r.outcome);
        }
        if failed.len() > LIST {
            let _ = writeln!(
                s,
                "  … and {} more (out/report.json; `spawnmatrix probe --check` lists them)",
                failed.len() - LIST
            );
        }
    }

    fn changed(&self, s: &mut String) {
        let Some((origin, old, d)) = &self.changes else {
            let _ = writeln!(
                s,
                "\nAgainst the committed table: not compared (no documented claims, --no-docs)."
            );
            return;
        };
        let version = old.data_version.as_deref().unwrap_or("?");
        let n = d.cells.len() + d.rows_added.len() + d.families_added.len();
        let _ = writeln!(
            s,
            "\nAgainst the committed table ({origin}, data {version}): {}",
            match n {
                0 => String::from("this machine's run changes no answer."),
                1 => String::from("this machine's run changes 1 answer:"),
                n => format!("this machine's run changes {n} answers:"),
            }
        );
        // Changed answers first: what a reader of the committed table would get wrong.
        let lines = d
            .cells
            .iter()
            .map(|c| {
                format!(
                    "  {} {}: {} → {}",
                    c.row,
                    c.family,
                    c.old.as_deref().unwrap_or("?"),
                    c.new.as_deref().unwrap_or("?")
                )
            })
            .chain(d.rows_added.iter().map(|r| format!("  new row {r}")))
            .chain(d.families_added.iter().map(|f| format!("  new family {f}")));
        for line in lines.take(LIST) {
            let _ = writeln!(s, "{line}");
        }
        if n > LIST {
            let _ = writeln!(
                s,
                "  … and {} more: spawnmatrix diff {origin} {}",
                n - LIST,
                self.out.join("summary.json").display()
            );
        }
    }

    fn outputs(&self, s: &mut String) {
        let dir = std::path::absolute(self.out).unwrap_or_else(|_| self.out.to_path_buf());
        let opener = match std::env::consts::OS {
            "macos" => "open",
            _ => "xdg-open",
        };
        let _ = writeln!(s, "\nOutputs, written together in {}:", dir.display());
        let _ = writeln!(
            s,
            "  index.html    the table to browse: {opener} {} (or file://{})",
            self.out.join("index.html").display(),
            dir.join("index.html").display()
        );
        let _ = writeln!(
            s,
            "  MATRIX.md     every cell: {} rows × {} columns, {} lines of Markdown",
            self.matrix.rows.len(),
            self.matrix.columns.len(),
            self.markdown_lines
        );
        let _ = writeln!(
            s,
            "  matrix.json   the merged matrix (schema/matrix.v1.schema.json)"
        );
        let _ = writeln!(
            s,
            "  report.json   this machine's probe (spawnmatrix probe --json)"
        );
        if self.changes.is_some() {
            let _ = writeln!(s, "  summary.json  the summary with this machine in it");
        }
        let _ = writeln!(
            s,
            "\nOne feature: spawnmatrix query addchdir_np; for a baseline: spawnmatrix query addchdir_np --baseline manylinux2014"
        );
    }
}
