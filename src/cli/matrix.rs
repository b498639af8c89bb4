//! `spawnmatrix matrix REPORT... --out DIR`: merge reports (and documented claims) into
//! matrix.json, MATRIX.md and index.html.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use spawnmatrix::matrix::docs::Docs;
use spawnmatrix::matrix::load::{self, SourcedReport};
use spawnmatrix::matrix::render::Outputs;
use spawnmatrix::matrix::{Matrix, MatrixError};

use super::stored::Tree;
use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// Report files (JSON), or folders whose *.json files are reports.
    #[arg(required = true)]
    reports: Vec<PathBuf>,
    /// Folder for matrix.json, MATRIX.md and index.html (written together, atomically).
    #[arg(long, value_name = "DIR", default_value = "out")]
    out: PathBuf,
    /// Leave out the documented claims of targets/*/platform.yaml.
    #[arg(long)]
    no_docs: bool,
    #[command(flatten)]
    tree: Tree,
}

/// Reads report files, expanding folders to the *.json files inside. Finding none at all is
/// an error: a matrix of documented claims alone is not what was asked for.
pub fn read_reports(paths: &[PathBuf]) -> Result<Vec<SourcedReport>, MatrixError> {
    let mut reports = Vec::new();
    for path in paths {
        if path.is_dir() {
            reports.extend(load::read_report_dir(path)?);
        } else {
            reports.push(load::read_report(path)?);
        }
    }
    if reports.is_empty() {
        let given: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(MatrixError::NoReports {
            given: given.join(", "),
        });
    }
    Ok(reports)
}

/// Writes the outputs (and `extra` files) to `out` and lists every disagreement on stderr;
/// `baselines` is the page's baseline view as JSON, when there is one.
pub fn publish(
    matrix: &Matrix,
    out: &Path,
    extra: &[(&str, &[u8])],
    views: Option<&PageViews>,
) -> Result<Outputs, MatrixError> {
    for d in matrix.disagreements() {
        eprintln!("spawnmatrix: disagreement: {}", d.describe());
    }
    let outputs = Outputs::render_with_views(
        matrix,
        views.and_then(|v| v.baselines.as_deref()),
        views.map(|v| v.sections.as_str()),
    );
    outputs.write(out, extra)?;
    Ok(outputs)
}

/// The page's views read off `targets/` besides the matrix, as JSON.
pub struct PageViews {
    /// The baseline view; `None` without a baselines file.
    pub baselines: Option<String>,
    /// The kernel and sandbox sections (`published::page_sections`).
    pub sections: String,
}

/// The page's baseline view and kernel and sandbox sections of `matrix`.
pub fn page_views(
    matrix: &Matrix,
    targets: &Path,
) -> Result<PageViews, Box<dyn std::error::Error>> {
    let summary = spawnmatrix::matrix::summary::build(matrix);
    let caps = spawnmatrix::caps_header::build(&summary, matrix)?;
    let view = spawnmatrix::published::baseline_view::of_targets(&caps, matrix, targets)?;
    let kernel = spawnmatrix::published::kernel::Kernel::load(targets)?;
    Ok(PageViews {
        baselines: view.map(|v| serde_json::to_string(&v)).transpose()?,
        sections: spawnmatrix::published::page_sections(matrix, kernel.as_ref()),
    })
}

pub fn run(args: Args) -> CliResult {
    let reports = read_reports(&args.reports)?;
    let docs = match args.no_docs {
        true => Docs::default(),
        false => Docs::load(&args.tree.targets()?)?,
    };
    let cases = args.tree.case_index()?;
    let matrix = spawnmatrix::matrix::merge_with(&reports, &docs, &cases)?;
    let views = match args.no_docs {
        true => None,
        false => Some(page_views(&matrix, &args.tree.targets()?)?),
    };
    publish(&matrix, &args.out, &[], views.as_ref())?;
    outln!(
        "{} columns, {} rows written to {}/{{matrix.json,MATRIX.md,index.html}}",
        matrix.columns.len(),
        matrix.rows.len(),
        args.out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
