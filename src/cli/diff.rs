//! `spawnmatrix diff OLD NEW`: what changed between two matrices or reports, regressions first.
//! Only the same platform is compared (see `spawnmatrix::matrix::diff`); files that share no
//! platform are an error.
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
#[command(
    after_help = "Columns are compared when their keys are equal, or when each is the \
only unmatched column of one platform (os, arch, libc, evidence) in its file: two reports of \
one machine before and after a libc upgrade compare. Other columns are listed as added or \
removed. Files that share no platform are an error.\n\n\
Exit status: 0 no regressions, 1 regressions found, 2 bad input or nothing to compare."
)]
pub struct Args {
    /// The earlier matrix.json or report.
    old: PathBuf,
    /// The later matrix.json or report.
    new: PathBuf,
    /// Print the comparison as JSON on stdout (`compared`: the column pairs, `changes`, `regressions`: how many).
    #[arg(long)]
    json: bool,
}

/// A matrix as is; a report as a one-column matrix without documented claims.
fn as_matrix(doc: Document) -> Result<Matrix, MatrixError> {
    match doc {
        Document::Matrix(m) => Ok(m),
        Document::Report(r) => spawnmatrix::matrix::merge(&[*r], &Docs::default()),
    }
}

pub fn run(args: Args) -> CliResult {
    let old = as_matrix(read_document(&args.old)?)?;
    let new = as_matrix(read_document(&args.new)?)?;
    let d = diff::diff(&old, &new);
    if d.compared.is_empty() {
        return Err(MatrixError::Unrelated {
            old: args.old,
            new: args.new,
            old_platforms: diff::identities(&old).join(", "),
            new_platforms: diff::identities(&new).join(", "),
        }
        .into());
    }
    let regressions = d.regressions();
    if args.json {
        let mut json = serde_json::to_value(&d)?;
        json["regressions"] = regressions.into();
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        print!("{}", diff::render(&d));
    }
    Ok(match regressions {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}
