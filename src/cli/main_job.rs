//! What `spawnmatrix` does with no arguments: probe this machine live (the same report as
//! `spawnmatrix probe --json`), merge it with the stored reports (`targets/reports/*.json`)
//! and the documented claims (`targets/*/platform.yaml`), write matrix.json, MATRIX.md,
//! index.html and the live report.json to one folder as one atomic set, and print the
//! Markdown table.

use std::path::PathBuf;
use std::process::ExitCode;

use spawnmatrix::matrix::docs::Docs;
use spawnmatrix::matrix::load::{self, SourcedReport};
use spawnmatrix::platform::provenance::provenance_from_env;
use spawnmatrix::report::Provenance;

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
    let extra = [("report.json", live_json.as_bytes())];
    let views = match args.no_docs {
        true => None,
        false => Some(super::matrix::page_views(&matrix, &targets)?),
    };
    let outputs = super::matrix::publish(&matrix, &args.out, &extra, views.as_ref())?;
    out!("{}", outputs.markdown)?;
    eprintln!(
        "spawnmatrix: live probe + {stored} stored reports + {} documented families: {} columns, \
         {} rows; wrote {}/{{matrix.json,MATRIX.md,index.html,report.json}}",
        docs.families.len(),
        matrix.columns.len(),
        matrix.rows.len(),
        args.out.display()
    );
    Ok(match args.check {
        true => super::probe::check(&reports[0].report),
        false => ExitCode::SUCCESS,
    })
}
