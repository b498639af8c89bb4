//! Reading reports and matrices from files, with errors that name the file and line.
//!
//! The schema version is checked on a loose parse first, so a report from a newer suite says
//! "schema_version 2 is not supported" rather than failing on its first new field.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::error::MatrixError;
use super::model::{Evidence, Matrix, MATRIX_SCHEMA_VERSION};
use crate::report::{Report, SCHEMA_VERSION};

/// A report together with the file it came from (the file is named in cells and errors).
#[derive(Debug, Clone, PartialEq)]
pub struct SourcedReport {
    pub origin: PathBuf,
    pub report: Report,
}

/// A file given to `diff`: either a merged matrix or a single report.
#[derive(Debug, Clone, PartialEq)]
pub enum Document {
    Matrix(Matrix),
    Report(Box<SourcedReport>),
}

fn read_text(path: &Path) -> Result<String, MatrixError> {
    std::fs::read_to_string(path).map_err(|source| MatrixError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn json_error(path: &Path, e: serde_json::Error) -> MatrixError {
    // serde_json ends its message with the position the `path:line:column:` prefix gives.
    let (line, column) = (e.line(), e.column());
    let text = e.to_string();
    let suffix = format!(" at line {line} column {column}");
    MatrixError::Json {
        path: path.to_path_buf(),
        line,
        column,
        message: text.strip_suffix(&suffix).unwrap_or(&text).to_string(),
    }
}

/// Parses `text` as `T` after checking that its `schema_version` is `expected`.
fn parse_versioned<T: DeserializeOwned>(
    path: &Path,
    text: &str,
    expected: u32,
) -> Result<T, MatrixError> {
    let loose: serde_json::Value = serde_json::from_str(text).map_err(|e| json_error(path, e))?;
    match loose.get("schema_version") {
        Some(v) if v.as_u64() == Some(u64::from(expected)) => {}
        found => {
            return Err(MatrixError::SchemaVersion {
                path: path.to_path_buf(),
                found: found.map_or_else(|| String::from("(missing)"), |v| v.to_string()),
                expected,
            })
        }
    }
    serde_json::from_str(text).map_err(|e| json_error(path, e))
}

/// Checks what serde cannot: a known provenance kind, and a source on every documented claim.
fn check_report(path: &Path, report: &Report) -> Result<(), MatrixError> {
    let kind = &report.platform.provenance.kind;
    let evidence =
        Evidence::from_provenance(kind).ok_or_else(|| MatrixError::UnknownProvenance {
            path: path.to_path_buf(),
            kind: kind.clone(),
        })?;
    if evidence == Evidence::Doc {
        if let Some((name, _)) = report
            .capabilities
            .iter()
            .find(|(_, c)| c.source.as_deref().is_none_or(str::is_empty))
        {
            return Err(MatrixError::DocWithoutSource {
                path: path.to_path_buf(),
                name: name.clone(),
            });
        }
    }
    Ok(())
}

/// Parses one report (the text of `path`).
pub fn parse_report(path: &Path, text: &str) -> Result<SourcedReport, MatrixError> {
    let report: Report = parse_versioned(path, text, SCHEMA_VERSION)?;
    check_report(path, &report)?;
    Ok(SourcedReport {
        origin: path.to_path_buf(),
        report,
    })
}

pub fn read_report(path: &Path) -> Result<SourcedReport, MatrixError> {
    parse_report(path, &read_text(path)?)
}

/// The paths `pick` makes of the entries of `dir`, sorted. A missing `dir` has none.
pub fn list_dir(
    dir: &Path,
    pick: impl Fn(PathBuf) -> Option<PathBuf>,
) -> Result<Vec<PathBuf>, MatrixError> {
    let io = |source| MatrixError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(e)),
    };
    let mut paths = Vec::new();
    for entry in entries {
        paths.extend(pick(entry.map_err(io)?.path()));
    }
    paths.sort();
    Ok(paths)
}

/// Reads every `*.json` in `dir`, in file-name order. A missing directory gives no reports.
pub fn read_report_dir(dir: &Path) -> Result<Vec<SourcedReport>, MatrixError> {
    let paths = list_dir(dir, |p| {
        p.extension().is_some_and(|e| e == "json").then_some(p)
    })?;
    paths.iter().map(|p| read_report(p)).collect()
}

pub fn parse_matrix(path: &Path, text: &str) -> Result<Matrix, MatrixError> {
    parse_versioned(path, text, MATRIX_SCHEMA_VERSION)
}

/// Reads a matrix or a report, telling them apart by their top-level fields.
pub fn read_document(path: &Path) -> Result<Document, MatrixError> {
    let text = read_text(path)?;
    let loose: serde_json::Value = serde_json::from_str(&text).map_err(|e| json_error(path, e))?;
    if loose.get("columns").is_some() {
        Ok(Document::Matrix(parse_matrix(path, &text)?))
    } else if loose.get("platform").is_some() {
        Ok(Document::Report(Box::new(parse_report(path, &text)?)))
    } else {
        Err(MatrixError::UnknownDocument {
            path: path.to_path_buf(),
        })
    }
}
