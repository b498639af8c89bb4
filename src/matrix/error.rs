//! Everything that can go wrong while reading matrix input; each variant names the file.

use std::path::PathBuf;

use crate::yaml::YamlError;

#[derive(Debug, thiserror::Error)]
pub enum MatrixError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Not JSON, or JSON that does not fit the expected type (line and column from serde_json).
    #[error("{}:{line}:{column}: {message}", path.display())]
    Json {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{}: schema_version {found} is not supported (this build reads {expected})", path.display())]
    SchemaVersion {
        path: PathBuf,
        found: String,
        expected: u32,
    },
    #[error("{}: provenance kind {kind:?} is not one of native, container, ci, emulated, link, doc", path.display())]
    UnknownProvenance { path: PathBuf, kind: String },
    #[error("{}: documented capability {name:?} names no source", path.display())]
    DocWithoutSource { path: PathBuf, name: String },
    #[error("{} and {} are the same run of platform {key} (same generated_at and host)", first.display(), second.display())]
    DuplicateReport {
        key: String,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("{}: neither a matrix (\"columns\") nor a report (\"platform\")", path.display())]
    UnknownDocument { path: PathBuf },
    #[error(transparent)]
    Yaml(#[from] YamlError),
    /// A platform.yaml that parses but says something inconsistent.
    #[error("{}: {message}", path.display())]
    Claims { path: PathBuf, message: String },
    #[error("family {family:?} is described twice: {} and {}", first.display(), second.display())]
    DuplicateFamily {
        family: String,
        first: PathBuf,
        second: PathBuf,
    },
    /// A folder the command needs is not there: never a matrix without it.
    #[error("no {what} at {} (run inside the repository or give {flag} DIR)", path.display())]
    Missing {
        what: &'static str,
        path: PathBuf,
        flag: &'static str,
    },
    /// A `targets/` folder without any `<family>/platform.yaml`: a wrong `--targets` would
    /// otherwise drop every documented claim and expectation silently.
    #[error("{}: no <family>/platform.yaml inside (is it the repository's targets/?)", dir.display())]
    NoFamilies { dir: PathBuf },
    /// Nothing to merge: no report files given, or folders without a `*.json` report.
    #[error("no reports in {given}: give report files, or folders holding *.json reports")]
    NoReports { given: String },
    /// `diff` of two files that share no platform: nothing could be compared.
    #[error("{} and {} share no platform (os, arch, libc, evidence): the first has {old_platforms}; the second has {new_platforms}", old.display(), new.display())]
    Unrelated {
        old: PathBuf,
        new: PathBuf,
        old_platforms: String,
        new_platforms: String,
    },
    #[error("writing {}: {source}", dir.display())]
    Write {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
}
