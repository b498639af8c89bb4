//! `targets/baselines.yaml`: every baseline names its family, the release it stands for, how
//! that is known and where (a checkable citation, or the stored report that observed it).
//!
//! ```yaml
//! checked: "2026-12-01"
//! baselines:
//!   - id: manylinux2014           # unique; letters, digits, `-`, `_`, `.`
//!     title: manylinux2014 (CentOS 7)
//!     family: linux-glibc         # a folder of targets/ with a platform.yaml
//!     release: "2.17"             # in the family's own numbering (its `version_of`)
//!     evidence: read              # run | read | definition
//!     cite: https://peps.python.org/pep-0600/#legacy-manylinux-tags
//!     note: ...                   # optional: what the cited source says
//! ```
//!
//! `run` cites a stored report (`targets/reports/NAME.json`) that must exist; the others cite
//! a URL or `owner/repo@COMMIT:path:LINE` ([`Citation`]). Every baseline cites the source it
//! was read from: `evidence: unread` (a release taken from somewhere other than its cited
//! source) is refused, so a baseline whose source cannot be read is left out of the file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::matrix::citation::Citation;
use crate::matrix::error::MatrixError;
use crate::matrix::version::Version;
use crate::yaml::YamlError;

/// The file's name inside `targets/`.
pub const FILE_NAME: &str = "baselines.yaml";

/// How the release a baseline stands for is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BaselineEvidence {
    /// A stored report of this repository observed that release.
    Run,
    /// The cited primary source was read and states it.
    Read,
    /// The baseline is that release by definition (a deployment target).
    Definition,
    /// The primary source could not be read. Refused by [`Baselines::parse`]: it is a variant
    /// only so that the refusal names the line and says why, not "unknown variant".
    Unread,
}

impl BaselineEvidence {
    pub fn name(self) -> &'static str {
        match self {
            BaselineEvidence::Run => "run",
            BaselineEvidence::Read => "read",
            BaselineEvidence::Definition => "definition",
            BaselineEvidence::Unread => "unread",
        }
    }
}

/// One baseline as written (and as published in `summary.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub id: String,
    pub title: String,
    pub family: String,
    pub release: String,
    pub evidence: BaselineEvidence,
    pub cite: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    checked: String,
    baselines: Vec<Baseline>,
}

/// Every baseline of a `targets/` folder, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Baselines {
    /// Empty when the folder has no baselines file.
    pub file: Option<PathBuf>,
    pub checked: Option<String>,
    pub list: Vec<Baseline>,
}

/// The 1-based line of the `nth` entry `- id: <id>` in `text`, or of its field `field`
/// (`None`: the entry line itself), so a check that fails after parsing still names a line.
fn line_of(text: &str, id: &str, nth: usize, field: Option<&str>) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    fn is_entry(l: &str) -> Option<&str> {
        l.trim_start()
            .strip_prefix("- id:")
            .map(|v| v.trim().trim_matches(['"', '\'']))
    }
    let Some(start) = (0..lines.len())
        .filter(|&i| is_entry(lines[i]) == Some(id))
        .nth(nth)
    else {
        return 0;
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| is_entry(l).is_some())
        .map_or(lines.len(), |n| start + 1 + n);
    let found = field.and_then(|f| {
        let key = format!("{f}:");
        (start..end).find(|&i| {
            let l = lines[i].trim_start();
            l.starts_with(&key) || l.strip_prefix("- ").is_some_and(|r| r.starts_with(&key))
        })
    });
    found.unwrap_or(start) + 1
}

fn error(path: &Path, line: usize, message: String) -> MatrixError {
    MatrixError::Yaml(YamlError {
        file: path.display().to_string(),
        line,
        column: 0,
        message,
    })
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl Baselines {
    /// Parses and checks the file's text. `families` are the family ids of `targets/`;
    /// `targets` is the folder, for the stored reports `run` entries cite.
    pub fn parse(
        path: &Path,
        text: &str,
        families: &[&str],
        targets: &Path,
    ) -> Result<Baselines, MatrixError> {
        let spec: BaselineFile = crate::yaml::from_str(path, text)?;
        let mut seen: Vec<&str> = Vec::new();
        for b in &spec.baselines {
            let nth = seen.iter().filter(|s| **s == b.id).count();
            let at = |field: Option<&str>| line_of(text, &b.id, nth, field);
            if !valid_id(&b.id) {
                return Err(error(
                    path,
                    at(None),
                    format!("id {:?}: only letters, digits, '-', '_' and '.'", b.id),
                ));
            }
            if seen.contains(&b.id.as_str()) {
                return Err(error(
                    path,
                    at(None),
                    format!("id {:?} is listed twice", b.id),
                ));
            }
            seen.push(&b.id);
            if !families.contains(&b.family.as_str()) {
                return Err(error(
                    path,
                    at(Some("family")),
                    format!(
                        "{}: family {:?} has no targets/<family>/platform.yaml (known: {})",
                        b.id,
                        b.family,
                        families.join(", ")
                    ),
                ));
            }
            if Version::parse(&b.release).is_none() {
                return Err(error(
                    path,
                    at(Some("release")),
                    format!("{}: release {:?} is not a release number", b.id, b.release),
                ));
            }
            if b.evidence == BaselineEvidence::Unread {
                return Err(error(
                    path,
                    at(Some("evidence")),
                    format!(
                        "{}: evidence unread is refused: every baseline cites the source it was \
                         read from; read {} (or another primary source) or leave the baseline out",
                        b.id, b.cite
                    ),
                ));
            }
            check_cite(b, targets).map_err(|m| error(path, at(Some("cite")), m))?;
        }
        Ok(Baselines {
            file: Some(path.to_path_buf()),
            checked: Some(spec.checked),
            list: spec.baselines,
        })
    }

    /// `targets/baselines.yaml`, or no baselines when the folder has none.
    pub fn load(targets: &Path, families: &[&str]) -> Result<Baselines, MatrixError> {
        let path = targets.join(FILE_NAME);
        match std::fs::read_to_string(&path) {
            Ok(text) => Baselines::parse(&path, &text, families, targets),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Baselines::default()),
            Err(source) => Err(MatrixError::Io { path, source }),
        }
    }

    /// The baseline with this id (case and `_`/`-` ignored, so `manylinux_2_28` and
    /// `MANYLINUX-2-28` both find it).
    pub fn find(&self, id: &str) -> Option<&Baseline> {
        let fold = |t: &str| t.to_ascii_lowercase().replace('_', "-");
        self.list.iter().find(|b| fold(&b.id) == fold(id))
    }
}

/// A `run` entry cites a stored report that exists; the rest a [`Citation`].
fn check_cite(b: &Baseline, targets: &Path) -> Result<(), String> {
    match b.evidence {
        BaselineEvidence::Run => {
            let name = b
                .cite
                .strip_prefix("targets/reports/")
                .filter(|n| n.ends_with(".json") && !n.contains('/'))
                .ok_or_else(|| {
                    format!(
                        "{}: evidence run cites a stored report, targets/reports/NAME.json, not {:?}",
                        b.id, b.cite
                    )
                })?;
            match targets.join("reports").join(name).is_file() {
                true => Ok(()),
                false => Err(format!("{}: {} does not exist", b.id, b.cite)),
            }
        }
        _ => b
            .cite
            .parse::<Citation>()
            .map(|_| ())
            .map_err(|e| format!("{}: {e}", b.id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const GOOD: &str = "checked: \"2026-12-01\"\nbaselines:\n  - id: manylinux2014\n    title: m\n    family: linux-glibc\n    release: \"2.17\"\n    evidence: read\n    cite: https://peps.python.org/pep-0600/\n";

    fn parse(text: &str) -> Result<Baselines, MatrixError> {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("reports")).unwrap();
        std::fs::write(tmp.path().join("reports/a.json"), "{}").unwrap();
        Baselines::parse(
            Path::new("targets/baselines.yaml"),
            text,
            &["linux-glibc", "macos"],
            tmp.path(),
        )
    }

    #[test]
    fn reads_a_good_file() {
        let b = parse(GOOD).unwrap();
        assert_eq!(b.list.len(), 1);
        assert_eq!(b.find("MANYLINUX2014").unwrap().release, "2.17");
    }

    #[rstest]
    #[case::unknown_family(GOOD.replace("linux-glibc", "linux-uclibc"), 5, "has no targets/")]
    #[case::bad_release(GOOD.replace("\"2.17\"", "\"two\""), 6, "not a release number")]
    #[case::bad_cite(GOOD.replace("https://peps.python.org/pep-0600/", "PEP 600"), 8, "not a citation")]
    #[case::missing_report(GOOD.replace("evidence: read", "evidence: run").replace("https://peps.python.org/pep-0600/", "targets/reports/b.json"), 8, "does not exist")]
    #[case::run_cites_a_url(GOOD.replace("evidence: read", "evidence: run"), 8, "cites a stored report")]
    #[case::unread(GOOD.replace("evidence: read", "evidence: unread"), 7, "evidence unread is refused")]
    #[case::unread_with_a_note(GOOD.replace("evidence: read", "evidence: unread").replace("title: m", "title: m\n    note: secondary tables say so"), 8, "evidence unread is refused")]
    #[case::twice(format!("{GOOD}{}", GOOD.split_once("baselines:\n").unwrap().1), 9, "listed twice")]
    #[case::unknown_field(GOOD.replace("title: m", "title: m\n    glibc: x"), 5, "unknown field")]
    #[case::bad_evidence(GOOD.replace("evidence: read", "evidence: guessed"), 7, "unknown variant")]
    fn names_file_and_line(#[case] text: String, #[case] line: usize, #[case] why: &str) {
        let e = parse(&text).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("targets/baselines.yaml:{line}:")),
            "{e}"
        );
        assert!(e.contains(why), "{e}");
    }

    #[test]
    fn a_run_entry_cites_an_existing_report() {
        let text = GOOD.replace("evidence: read", "evidence: run").replace(
            "https://peps.python.org/pep-0600/",
            "targets/reports/a.json",
        );
        assert_eq!(
            parse(&text).unwrap().list[0].evidence,
            BaselineEvidence::Run
        );
    }
}
