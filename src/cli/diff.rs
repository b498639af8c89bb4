//! `spawnmatrix diff OLD NEW`: what changed between two matrices or reports, regressions first.
//!
//! Exit status: 0 without regressions, 1 when there is at least one regression (a capability
//! that became absent, a case that now fails or whose outcome changed), 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use spawnmatrix::matrix::diff;
use spawnmatrix::matrix::docs::Docs;
use spawnmatrix::matrix::load::{read_document, Document};
use spawnmatrix::matrix::{Matrix, MatrixError};

use super::CliResult;

#[derive(clap::Args)]
#[command(after_help = "Exit status: 0 no regressions, 1 regressions found, 2 bad input.")]
pub struct Args {
    /// The earlier matrix.json or report.
    old: PathBuf,
    /// The later matrix.json or report.
    new: PathBuf,
}

/// A matrix as is; a report as a one-column matrix without documented claims.
fn as_matrix(doc: Document) -> Result<Matrix, MatrixError> {
    match doc {
        Document::Matrix(m) => Ok(m),
        Document::Report(r) => spawnmatrix::matrix::merge(&[*r], &Docs::default()),
    }
}

pub fn run(args: Args) -> CliResult {
    let (old, new) = (read_document(&args.old)?, read_document(&args.new)?);
    let both_reports = matches!((&old, &new), (Document::Report(_), Document::Report(_)));
    let (old, mut new) = (as_matrix(old)?, as_matrix(new)?);
    if both_reports {
        diff::align_single_columns(&old, &mut new);
    }
    let changes = diff::diff(&old, &new);
    print!("{}", diff::render(&changes));
    Ok(match diff::has_regressions(&changes) {
        true => ExitCode::from(1),
        false => ExitCode::SUCCESS,
    })
}
