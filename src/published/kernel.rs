//! The Linux kernel as a family of its own: the kernel features the library and the table use
//! (`clone3`, `CLONE_PIDFD`, `close_range`, `pidfd_open`, ...), each with the first release
//! the kernel's man pages give (`targets/linux-kernel/kernel.yaml`, doc evidence) and what
//! every Linux column observed (its `kernel.*` cells, run evidence, grouped by the kernel
//! release the column ran on: 6.18 on the build machine, 6.1 in the emulated Debian 12
//! guests, 5.10 to 7.3 in the x86_64 kernel guests of `ci/emulate.sh linux-VER`; the
//! containers run under Docker's seccomp profile and are left out). Each row names the first
//! release a run saw the feature in next to the documented one, and a run that contradicts
//! the documented release (missing from it on, present before it) is a disagreement.
//!
//! No report belongs to this family: a column's libc decides its own family, and its kernel
//! cells are read here a second time, under the kernel's release.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::{PublishedAnswer, PublishedRow, PublishedSection};
use crate::matrix::citation::Citation;
use crate::matrix::error::MatrixError;
use crate::matrix::model::{Boundary, Cell, Column, Evidence, Matrix, Value};
use crate::matrix::summary::{bare, step, Answer, ReleaseColumns, Step, SummaryFamily};
use crate::matrix::version::Version;
use crate::yaml::YamlError;

/// Where the file lives inside `targets/`.
pub const FILE: &str = "linux-kernel/kernel.yaml";
/// The summary family id and title.
pub const FAMILY: &str = crate::matrix::summary::KERNEL_FAMILY;
const TITLE: &str = "Linux kernel";

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Source {
    cite: String,
    note: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Feature {
    row: String,
    title: String,
    /// The first release the source gives; absent when it gives none (an ancient feature
    /// whose page names no release): the start is unknown, as `unknown` releases are
    /// elsewhere in the table, never a guessed number.
    #[serde(default)]
    since: Option<String>,
    source: String,
}

/// The release label of a feature whose source gives no first release.
const UNKNOWN: &str = "unknown";

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct KernelFile {
    checked: String,
    sources: BTreeMap<String, Source>,
    features: Vec<Feature>,
}

/// The checked file.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    file: KernelFile,
}

fn invalid(path: &Path, text: &str, needle: &str, message: String) -> MatrixError {
    let line = text
        .lines()
        .position(|l| l.contains(needle))
        .map_or(0, |i| i + 1);
    MatrixError::Yaml(YamlError {
        file: path.display().to_string(),
        line,
        column: 0,
        message,
    })
}

impl Kernel {
    /// Parses and checks the file: `kernel.` rows, release numbers, known sources and
    /// checkable citations.
    pub fn parse(path: &Path, text: &str) -> Result<Kernel, MatrixError> {
        let file: KernelFile = crate::yaml::from_str(path, text)?;
        for (key, s) in &file.sources {
            s.cite
                .parse::<Citation>()
                .map_err(|e| invalid(path, text, &s.cite, format!("sources.{key}: {e}")))?;
        }
        for f in &file.features {
            let at = format!("row: {}", f.row);
            if !f.row.starts_with("kernel.") {
                return Err(invalid(
                    path,
                    text,
                    &at,
                    format!("{}: a row here starts with kernel.", f.row),
                ));
            }
            if let Some(since) = f.since.as_deref().filter(|v| Version::parse(v).is_none()) {
                return Err(invalid(
                    path,
                    text,
                    &at,
                    format!("{}: since {since:?} is not a release", f.row),
                ));
            }
            if !file.sources.contains_key(&f.source) {
                return Err(invalid(
                    path,
                    text,
                    &at,
                    format!("{}: source {:?} is not listed", f.row, f.source),
                ));
            }
        }
        Ok(Kernel { file })
    }

    /// `targets/linux-kernel/kernel.yaml`, or none.
    pub fn load(targets: &Path) -> Result<Option<Kernel>, MatrixError> {
        let path = targets.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => Kernel::parse(&path, &text).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(MatrixError::Io { path, source }),
        }
    }

    /// Each feature's capability name (`clone3` for the row `kernel.clone3`) and its
    /// documented first release (none where the source names none).
    pub fn features(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.file
            .features
            .iter()
            .map(|f| (f.row.trim_start_matches("kernel."), f.since.as_deref()))
    }

    /// The date the releases were last checked against their sources.
    pub fn checked(&self) -> &str {
        &self.file.checked
    }

    /// The kernel family and its section, from the file and `matrix`'s Linux columns.
    pub fn section(&self, matrix: &Matrix) -> (SummaryFamily, PublishedSection) {
        // Run columns by kernel release (`6.18.44-fc` → 6.18), in release order. A column run
        // under a seccomp profile is left out: its kernel cells are the sandbox's answers
        // (its own libc family shows them, with the profile in its label).
        let mut by_release: BTreeMap<Vec<u64>, (String, Vec<&Column>)> = BTreeMap::new();
        for c in matrix
            .columns
            .iter()
            .filter(|c| c.platform.os == "linux" && c.platform.seccomp_profile().is_none())
        {
            let Some(v) = c.platform.kernel.as_deref().and_then(Version::parse) else {
                continue;
            };
            let key: Vec<u64> = v.parts().iter().take(2).copied().collect();
            let text = key.iter().map(u64::to_string).collect::<Vec<_>>().join(".");
            by_release
                .entry(key)
                .or_insert_with(|| (text, Vec::new()))
                .1
                .push(c);
        }
        let mut doc_releases: Vec<(Version, String)> = self
            .file
            .features
            .iter()
            .filter_map(|f| {
                let since = f.since.as_deref()?;
                Some((Version::parse(since)?, since.to_string()))
            })
            .collect();
        if self.file.features.iter().any(|f| f.since.is_none()) {
            // Documented, first release unknown: before every numbered release.
            doc_releases.push((Version::from_parts(Vec::new()), UNKNOWN.to_string()));
        }
        doc_releases.sort_by(|a, b| a.0.cmp(&b.0));
        doc_releases.dedup_by(|a, b| a.1 == b.1);
        let mut releases: Vec<(Version, ReleaseColumns)> = doc_releases
            .into_iter()
            .map(|(v, text)| {
                let rc = ReleaseColumns {
                    release: text,
                    columns: Vec::new(),
                    evidence: vec![Evidence::Doc],
                };
                (v, rc)
            })
            .collect();
        for (key, (text, cols)) in &by_release {
            let mut columns: Vec<String> = cols.iter().map(|c| c.key.clone()).collect();
            columns.sort();
            releases.push((
                Version::from_parts(key.clone()),
                ReleaseColumns {
                    release: text.clone(),
                    columns,
                    evidence: vec![Evidence::Run],
                },
            ));
        }
        releases.sort_by(|a, b| a.0.cmp(&b.0));
        let family = SummaryFamily {
            id: FAMILY.to_string(),
            title: TITLE.to_string(),
            releases: releases.into_iter().map(|(_, r)| r).collect(),
            known_releases: Vec::new(),
            shared_claims: Vec::new(),
            unread: Vec::new(),
            unsettled: Vec::new(),
        };
        let rows = self
            .file
            .features
            .iter()
            .map(|f| self.row(f, matrix, &by_release))
            .collect();
        let section = PublishedSection {
            id: String::from("kernel"),
            title: String::from("Linux kernel features: since which release"),
            rows,
        };
        (family, section)
    }

    fn row(
        &self,
        f: &Feature,
        matrix: &Matrix,
        by_release: &BTreeMap<Vec<u64>, (String, Vec<&Column>)>,
    ) -> PublishedRow {
        let source = &self.file.sources[&f.source];
        // The kernel release that added the feature, as its man page gives it; none when the
        // page names no release.
        let boundary = f.since.as_ref().map(|since| Boundary::Exact {
            release: since.clone(),
            after: None,
            floor: None,
        });
        let mut history: Vec<(Version, Step)> = vec![(
            f.since
                .as_deref()
                .and_then(Version::parse)
                .unwrap_or_else(|| Version::from_parts(Vec::new())),
            Step {
                release: f.since.clone().unwrap_or_else(|| UNKNOWN.to_string()),
                value: Value::Bool(true),
                evidence: vec![Evidence::Doc],
                columns: Vec::new(),
                disagreement: false,
                documented_from: f.since.clone(),
                began: boundary.clone(),
                states: Vec::new(),
                notes: Vec::new(),
                sources: Vec::new(),
                claims: Vec::new(),
                cites: Vec::new(),
            },
        )];
        let cells = matrix.rows.iter().find(|r| r.id == f.row).map(|r| &r.cells);
        let mut notes = Vec::new();
        for (key, (text, cols)) in by_release {
            let found: Vec<(&Column, &Cell)> = cols
                .iter()
                .filter_map(|c| Some((*c, cells?.get(&c.key)?)))
                .collect();
            if let Some(s) = step(text, &found) {
                notes.extend(found.iter().filter_map(|(_, c)| c.note.clone()));
                history.push((Version::from_parts(key.clone()), s));
            }
        }
        history.sort_by(|a, b| a.0.cmp(&b.0));
        // A run contradicts the documented release when it finds the feature missing on a
        // release from it on (a kernel built without it) or present before it (the date is
        // too late): a disagreement, shown, not hidden. Without a documented release only
        // a missing feature contradicts.
        let documented = f.since.as_deref().and_then(Version::parse);
        let contradicts = |v: &Version, s: &Step| {
            let present = s.value == Value::Bool(true);
            s.evidence.contains(&Evidence::Run)
                && match &documented {
                    Some(d) => present != (v >= d),
                    None => !present,
                }
        };
        let disagreement = history
            .iter()
            .any(|(v, s)| s.disagreement || contradicts(v, s));
        // The first release a run saw the feature in, next to the documented one.
        let first_run = history
            .iter()
            .find(|(_, s)| s.evidence.contains(&Evidence::Run) && s.value == Value::Bool(true))
            .map(|(_, s)| s.release.clone());
        let documented_text = f.since.as_deref().unwrap_or(UNKNOWN);
        notes.push(match &first_run {
            Some(r) => {
                format!("first release with run evidence: {r} (documented: {documented_text})")
            }
            None => format!("no run saw it (documented: {documented_text})"),
        });
        let mut evidence: Vec<Evidence> = history
            .iter()
            .flat_map(|(_, s)| s.evidence.clone())
            .collect();
        evidence.sort();
        evidence.dedup();
        notes.sort();
        notes.dedup();
        let answer = Answer {
            family: FAMILY.to_string(),
            text: f
                .since
                .clone()
                .unwrap_or_else(|| bare(&Value::Bool(true), UNKNOWN)),
            since: f.since.clone(),
            boundary,
            evidence,
            disagreement,
            states: Vec::new(),
            notes: Vec::new(),
            sources: Vec::new(),
            through: None,
            unknown_from: None,
            claims: Vec::new(),
            history: history.into_iter().map(|(_, s)| s).collect(),
        };
        PublishedRow {
            id: f.row.clone(),
            label: f.row.trim_start_matches("kernel.").to_string(),
            title: Some(f.title.clone()),
            uses: Vec::new(),
            answers: vec![PublishedAnswer {
                answer,
                state: String::from("available"),
                notes,
                sources: vec![format!("{}: {} ({})", f.source, source.note, source.cite)],
            }],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "checked: \"2026-12-01\"\nsources:\n  M:\n    cite: https://man7.org/linux/man-pages/man2/clone3.2.html\n    note: n\nfeatures:\n  - row: kernel.clone3\n    title: t\n    since: \"5.3\"\n    source: M\n";

    #[test]
    fn names_the_line_of_a_bad_feature() {
        let p = Path::new("targets/linux-kernel/kernel.yaml");
        assert!(Kernel::parse(p, GOOD).is_ok());
        let e = Kernel::parse(p, &GOOD.replace("source: M", "source: X")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("targets/linux-kernel/kernel.yaml:7:"),
            "{e}"
        );
        // A page that names no first release: no `since`, an unknown start.
        assert!(Kernel::parse(p, &GOOD.replace("    since: \"5.3\"\n", "")).is_ok());
        let e = Kernel::parse(p, &GOOD.replace("\"5.3\"", "\"soon\"")).unwrap_err();
        assert!(e.to_string().contains("not a release"), "{e}");
        let e = Kernel::parse(
            p,
            &GOOD.replace(
                "https://man7.org/linux/man-pages/man2/clone3.2.html",
                "man clone3",
            ),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not a citation"), "{e}");
    }
}
