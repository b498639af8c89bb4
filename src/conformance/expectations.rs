//! Per-target expectation files for the `libc` subject: what this libc did last time, so a
//! libc upgrade that changes behaviour is caught.
//!
//! Lookup: `targets/<family>/expectations/<libc version>.yaml` when the version is known and
//! that file exists, else `targets/<family>/expectations/default.yaml`. The family comes from
//! the libc name (`glibc` → `linux-glibc`, `musl` → `linux-musl`, ...). `spawnmatrix expect`
//! writes these files, sorted by case id, so a refresh is a reviewable diff.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::load::LoadError;
use super::outcome::Outcome;
use super::sys::LibcId;

/// One target's recorded outcomes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectationFile {
    /// The libc these outcomes were observed on (`glibc`).
    pub libc: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The platform the run was on (`linux-x86_64`), for the reader.
    pub observed_on: String,
    /// Case id → outcome.
    pub cases: BTreeMap<String, Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub outcome: String,
    /// The outcome is outside what POSIX allows for the case, and this target is known to
    /// do it: the verdict is `known-deviation` instead of `fail`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outside_posix: bool,
}

/// The `targets/` directory: `SPAWNMATRIX_TARGETS`, else the working tree's ([`crate::worktree`]).
pub fn default_targets_dir() -> PathBuf {
    crate::worktree::targets_dir()
}

/// The expectation file that applies to `libc` (which may not exist yet).
pub fn path_for(targets: &Path, libc: &LibcId) -> PathBuf {
    let dir = targets.join(libc.family).join("expectations");
    if let Some(version) = &libc.version {
        let versioned = dir.join(format!("{version}.yaml"));
        if versioned.is_file() {
            return versioned;
        }
    }
    dir.join("default.yaml")
}

/// Where `spawnmatrix expect` writes for `libc`: `<version>.yaml` when the version is known,
/// else `default.yaml`.
pub fn write_path_for(targets: &Path, libc: &LibcId) -> PathBuf {
    let dir = targets.join(libc.family).join("expectations");
    match &libc.version {
        Some(version) => dir.join(format!("{version}.yaml")),
        None => dir.join("default.yaml"),
    }
}

/// The file at `path`, or `None` when there is none. Every case id in it must be one of
/// `known_ids` and every outcome must parse.
pub fn load(path: &Path, known_ids: &[&str]) -> Result<Option<ExpectationFile>, LoadError> {
    match read_if_present(path)? {
        Some(text) => parse(path, &text, known_ids).map(Some),
        None => Ok(None),
    }
}

/// The text of `path`, `None` when there is no such file.
pub(super) fn read_if_present(path: &Path) -> Result<Option<String>, LoadError> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(LoadError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The error for case `id` of the file `path` with `text`, at the line that starts its entry.
pub(super) fn invalid_at(path: &Path, text: &str, id: &str, message: String) -> LoadError {
    let line = text
        .lines()
        .position(|l| l.trim_start().starts_with(&format!("{id}:")))
        .map_or(1, |i| i + 1);
    LoadError::Invalid {
        file: path.display().to_string(),
        line,
        message,
    }
}

/// An expectation file's text (read from `path`, named in errors), parsed and checked like
/// [`load`] does.
pub fn parse(path: &Path, text: &str, known_ids: &[&str]) -> Result<ExpectationFile, LoadError> {
    let file: ExpectationFile = crate::yaml::from_str(path, text)?;
    for (id, entry) in &file.cases {
        let problem = if !known_ids.contains(&id.as_str()) {
            Some(format!("unknown case id `{id}`"))
        } else {
            entry
                .outcome
                .parse::<Outcome>()
                .err()
                .map(|e| e.to_string())
        };
        if let Some(message) = problem {
            return Err(invalid_at(path, text, id, message));
        }
    }
    Ok(file)
}

/// The YAML text for `file`, with a header saying where it came from.
pub fn render(file: &ExpectationFile) -> Result<String, crate::yaml::YamlError> {
    let body = crate::yaml::to_string(file)?;
    Ok(format!(
        "# Outcomes of the conformance suite's `libc` subject on this target.\n\
         # Written by `spawnmatrix expect`; review the diff when refreshing.\n{body}"
    ))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use rstest::rstest;

    use super::{load, path_for, render, Entry, ExpectationFile};
    use crate::conformance::load::LoadError;
    use crate::conformance::sys::LibcId;

    fn sample(id: &str, outcome: &str) -> ExpectationFile {
        ExpectationFile {
            libc: "glibc".into(),
            version: Some("2.36".into()),
            observed_on: "linux-x86_64".into(),
            cases: BTreeMap::from([(
                id.to_string(),
                Entry {
                    outcome: outcome.into(),
                    outside_posix: false,
                },
            )]),
        }
    }

    #[rstest]
    #[case("exec-enoent", "returned:ENOENT", None)]
    #[case("no-such-case", "returned:ENOENT", Some(7))]
    #[case("exec-enoent", "exited", Some(7))]
    fn round_trip_and_errors(
        #[case] id: &str,
        #[case] outcome: &str,
        #[case] bad_line: Option<usize>,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("default.yaml");
        let file = sample(id, outcome);
        std::fs::write(&path, render(&file).unwrap()).unwrap();
        match (load(&path, &["exec-enoent"]), bad_line) {
            (Ok(Some(read)), None) => assert_eq!(read, file),
            (Err(LoadError::Invalid { line, .. }), Some(want)) => assert_eq!(line, want),
            (other, want) => panic!("{other:?}, wanted error line {want:?}"),
        }
    }

    #[rstest]
    #[case(Some("2.36"), true, "2.36.yaml")]
    #[case(Some("2.36"), false, "default.yaml")]
    #[case(None, false, "default.yaml")]
    fn lookup(#[case] version: Option<&str>, #[case] versioned_exists: bool, #[case] want: &str) {
        let dir = tempfile::tempdir().unwrap();
        let exp = dir.path().join("linux-glibc/expectations");
        std::fs::create_dir_all(&exp).unwrap();
        if versioned_exists {
            std::fs::write(exp.join("2.36.yaml"), "").unwrap();
        }
        let id = LibcId {
            name: "glibc".into(),
            version: version.map(String::from),
            raw_version: version.map(String::from),
            os_version: None,
            family: "linux-glibc",
        };
        assert_eq!(path_for(dir.path(), &id), exp.join(want));
    }
}
