//! `spawnmatrix diff OLD NEW`: what changed between two matrices or reports, regressions first.
//! Only the same platform is compared (see `spawnmatrix::matrix::diff`); files that share no
//! platform are an error. Two published summaries (`docs/summary.json` of two releases) are
//! compared as `docs/CHANGES.md` is made: rows and families added or removed, changed cells
//! old → new with what they now rest on, baseline answers.
//!
//! Exit status: 0 without regressions, 1 when there is at least one regression (a capability
//! that became absent, a case that now fails or whose outcome changed), 2 on bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use spawnmatrix::matrix::diff;
use spawnmatrix::matrix::docs::Docs;
use spawnmatrix::matrix::load::{read_document, Document};
use spawnmatrix::matrix::{Matrix, MatrixError};
use spawnmatrix::published::changes;
use spawnmatrix::published::Published;

use super::CliResult;

#[derive(clap::Args)]
#[command(
    after_help = "Columns are compared when their keys are equal, or when each is the \
only unmatched column of one platform (os, arch, libc, evidence) in its file: two reports of \
one machine before and after a libc upgrade compare. Other columns are listed as added or \
removed. Files that share no platform are an error.\n\n\
Two published summaries (docs/summary.json) are compared row by row: rows and families \
added or removed, cells changed (old → new, with what they rest on), baseline answers; a \
regression is a row, family or answer gone, or a baseline that had a feature and lost it.\n\n\
Exit status: 0 no regressions, 1 regressions found, 2 bad input or nothing to compare."
)]
pub struct Args {
    /// The earlier matrix.json, report or published summary.json.
    old: PathBuf,
    /// The later matrix.json, report or published summary.json.
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

/// Whether the file is a published summary (`families` and `sections`, no `columns`).
fn is_summary(path: &Path) -> Result<Option<String>, MatrixError> {
    let text = std::fs::read_to_string(path).map_err(|source| MatrixError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let loose: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(_) => return Ok(None),
    };
    let summary = loose.get("sections").is_some() && loose.get("columns").is_none();
    Ok(summary.then_some(text))
}

/// Two published summaries: what changed between them (`changes::SummaryDiff`).
fn summaries(args: &Args, old: &str, new: &str) -> CliResult {
    let old = Published::parse(&args.old, old)?;
    let new = Published::parse(&args.new, new)?;
    let d = changes::diff(Some(&old), &new);
    let regressions = d.regressions();
    if args.json {
        let mut json = serde_json::to_value(&d)?;
        json["new_version"] = new.data_version.clone().into();
        json["step"] = serde_json::to_value(d.step())?;
        json["regressions"] = regressions.into();
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        let heading = format!(
            "{} → {}",
            old.data_version.as_deref().unwrap_or("unversioned"),
            new.data_version.as_deref().unwrap_or("unversioned")
        );
        out!("{}", d.markdown(&heading))?;
        if d.step().is_none() {
            outln!("No changes.")?;
        }
    }
    Ok(match regressions {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

pub fn run(args: Args) -> CliResult {
    match (is_summary(&args.old)?, is_summary(&args.new)?) {
        (Some(old), Some(new)) => return summaries(&args, &old, &new),
        (Some(_), None) | (None, Some(_)) => {
            return Err(format!(
                "{} and {}: a published summary compares only with another published summary",
                args.old.display(),
                args.new.display()
            )
            .into())
        }
        (None, None) => {}
    }
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
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        out!("{}", diff::render(&d))?;
    }
    Ok(match regressions {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}
