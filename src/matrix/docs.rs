//! Documented claims: `targets/<family>/platform.yaml`, one file per platform family.
//!
//! A claim says what a row's value is over a range of releases, with a source. Claims become
//! `doc` columns (one per release listed in `doc_columns`) and are attached to every run or
//! link column of the same family whose release they cover, so a disagreement shows.
//!
//! ```yaml
//! family: macos            # must match the folder name
//! title: macOS             # column headers: "macOS 15"
//! description: ...
//! match: { os: [macos] }   # which reports belong to this family (libc: [...] optional)
//! version_of: os           # claims' ranges compare against os_version (or: libc)
//! os: macos                # the platform fields doc columns get
//! libc: libSystem
//! doc_columns: ["10.14", "10.15", "15"]
//! sources:
//!   XNU-H: apple-oss-distributions/xnu libsyscall/wrappers/spawn/spawn.h @ xnu-11417.101.15
//! claims:
//!   - row: functions.posix_spawn_file_actions_addchdir_np
//!     since: "10.15"       # true from 10.15 on, false before (the source dates its addition)
//!     source: XNU-H
//!   - row: functions.posix_spawn_file_actions_addclosefrom_np
//!     value: false         # default true; a bool or an outcome string
//!     through: "15"        # range: from / through inclusive, before exclusive; all optional
//!     source: XNU-H
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::MatrixError;
use super::model::{Claim, Value};
use super::version::{Release, Version};
use crate::report::{Libc, Platform, Provenance};

/// Which platform field a family's release ranges compare against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VersionOf {
    Os,
    Libc,
}

impl VersionOf {
    pub fn name(self) -> &'static str {
        match self {
            VersionOf::Os => "os",
            VersionOf::Libc => "libc",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    pub os: Vec<String>,
    /// Empty: any libc on these OSes.
    #[serde(default)]
    pub libc: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimSpec {
    pub row: String,
    #[serde(default)]
    pub value: Option<Value>,
    #[serde(default)]
    pub since: Option<String>,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub before: Option<String>,
    #[serde(default)]
    pub through: Option<String>,
    /// A key of the file's `sources`.
    pub source: String,
    #[serde(default)]
    pub note: Option<String>,
}

/// A platform.yaml as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlatformFile {
    pub family: String,
    pub title: String,
    pub description: String,
    #[serde(rename = "match")]
    pub matches: Match,
    pub version_of: VersionOf,
    pub os: String,
    pub libc: String,
    #[serde(default)]
    pub doc_columns: Vec<String>,
    pub sources: BTreeMap<String, String>,
    #[serde(default)]
    pub claims: Vec<ClaimSpec>,
}

/// The top of a release range.
#[derive(Debug, Clone, PartialEq)]
enum Upper {
    Before(Version),
    Through(Version),
}

impl Upper {
    fn admits(&self, v: &Version) -> bool {
        match self {
            Upper::Before(b) => v < b,
            Upper::Through(t) => v <= t,
        }
    }
}

/// One checked claim: a value over a release range.
#[derive(Debug, Clone, PartialEq)]
struct Range {
    row: String,
    value: Value,
    from: Option<Version>,
    /// `from` as written, for the summary's "since" boundary.
    from_text: Option<String>,
    upper: Option<Upper>,
    source: String,
    note: Option<String>,
}

impl Range {
    /// Whether the claim holds for the release: for `>=v`, for every release from `v` on.
    fn covers(&self, release: &Release) -> bool {
        match release {
            Release::Exact(v) => self.contains(v),
            Release::AtLeast(v) => {
                self.from.as_ref().map_or(true, |f| f <= v) && self.upper.is_none()
            }
        }
    }

    fn contains(&self, v: &Version) -> bool {
        self.from.as_ref().map_or(true, |f| f <= v)
            && self.upper.as_ref().map_or(true, |u| u.admits(v))
    }

    fn overlaps(&self, other: &Range) -> bool {
        let starts_before_end = |a: &Range, b: &Range| match (&a.from, &b.upper) {
            (Some(f), Some(u)) => u.admits(f),
            _ => true,
        };
        starts_before_end(self, other) && starts_before_end(other, self)
    }
}

/// One family's checked claims.
#[derive(Debug, Clone, PartialEq)]
pub struct Family {
    pub file: PathBuf,
    pub spec: PlatformFile,
    ranges: Vec<Range>,
}

/// All families from a `targets/` folder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Docs {
    pub families: Vec<Family>,
}

/// The row-id prefixes a claim may name.
const ROW_PREFIXES: &[&str] = &["functions.", "flags.", "kernel.", "cases.", "perf."];

fn claims_error(path: &Path, message: String) -> MatrixError {
    MatrixError::Claims {
        path: path.to_path_buf(),
        message,
    }
}

fn version(path: &Path, what: &str, text: &str) -> Result<Version, MatrixError> {
    Version::parse(text)
        .ok_or_else(|| claims_error(path, format!("{what}: {text:?} is not a release number")))
}

impl Family {
    /// Parses and checks one platform.yaml: known row prefixes, known sources, release
    /// numbers that parse, and no two claims on one row that overlap with different values.
    pub fn parse(path: &Path, text: &str) -> Result<Family, MatrixError> {
        let spec: PlatformFile = crate::yaml::from_str(path, text)?;
        for v in &spec.doc_columns {
            version(path, "doc_columns", v)?;
        }
        let mut ranges = Vec::new();
        for (i, c) in spec.claims.iter().enumerate() {
            let at = format!("claims[{i}] ({})", c.row);
            if !ROW_PREFIXES.iter().any(|p| c.row.starts_with(p)) {
                return Err(claims_error(
                    path,
                    format!("{at}: row must start with one of {ROW_PREFIXES:?}"),
                ));
            }
            if !spec.sources.contains_key(&c.source) {
                return Err(claims_error(
                    path,
                    format!("{at}: source {:?} is not listed under sources", c.source),
                ));
            }
            let parse = |what: &str, v: &Option<String>| {
                v.as_deref()
                    .map(|t| version(path, &format!("{at}: {what}"), t))
                    .transpose()
            };
            let upper = match (parse("before", &c.before)?, parse("through", &c.through)?) {
                (Some(_), Some(_)) => {
                    return Err(claims_error(
                        path,
                        format!("{at}: before or through, not both"),
                    ))
                }
                (b, t) => b.map(Upper::Before).or(t.map(Upper::Through)),
            };
            let base = Range {
                row: c.row.clone(),
                value: c.value.clone().unwrap_or(Value::Bool(true)),
                from: parse("from", &c.from)?,
                from_text: c.from.clone(),
                upper,
                source: c.source.clone(),
                note: c.note.clone(),
            };
            match parse("since", &c.since)? {
                None => ranges.push(base),
                Some(since) => {
                    if c.from.is_some() || base.upper.is_some() || c.value.is_some() {
                        return Err(claims_error(
                            path,
                            format!("{at}: since stands alone (no value, from, before, through)"),
                        ));
                    }
                    // The note describes the function where it exists, not its absence.
                    ranges.push(Range {
                        value: Value::Bool(false),
                        from: None,
                        from_text: None,
                        upper: Some(Upper::Before(since.clone())),
                        note: None,
                        ..base.clone()
                    });
                    ranges.push(Range {
                        from: Some(since),
                        from_text: c.since.clone(),
                        ..base
                    });
                }
            }
        }
        for (i, a) in ranges.iter().enumerate() {
            if let Some(b) = ranges[i + 1..]
                .iter()
                .find(|b| b.row == a.row && b.value != a.value && a.overlaps(b))
            {
                return Err(claims_error(
                    path,
                    format!(
                        "claims on {} overlap with different values ({} from {}, {} from {})",
                        a.row, a.value, a.source, b.value, b.source
                    ),
                ));
            }
        }
        Ok(Family {
            file: path.to_path_buf(),
            spec,
            ranges,
        })
    }

    /// Whether a report's platform belongs to this family.
    pub fn matches(&self, p: &Platform) -> bool {
        let m = &self.spec.matches;
        m.os.contains(&p.os) && (m.libc.is_empty() || m.libc.contains(&p.libc.name))
    }

    /// The release of `p` that this family's ranges compare against.
    pub fn release_of(&self, p: &Platform) -> Option<Release> {
        let text = match self.spec.version_of {
            VersionOf::Os => p.os_version.as_deref(),
            VersionOf::Libc => p.libc.version.as_deref(),
        }?;
        Release::parse(text)
    }

    /// The documented value of `row` at `release`, with its source text.
    pub fn claim(&self, row: &str, release: &Release) -> Option<Claim> {
        self.ranges
            .iter()
            .find(|r| r.row == row && r.covers(release))
            .map(|r| Claim {
                from: r.from_text.clone(),
                value: r.value.clone(),
                source: self.source_text(&r.source),
                note: r.note.clone(),
            })
    }

    fn source_text(&self, key: &str) -> String {
        let text = self.spec.sources.get(key).map_or("", String::as_str);
        format!("{key}: {text}")
    }

    /// Every row this family makes a claim about, in order, once each.
    pub fn rows(&self) -> Vec<&str> {
        let mut rows: Vec<&str> = self.ranges.iter().map(|r| r.row.as_str()).collect();
        rows.sort_unstable();
        rows.dedup();
        rows
    }

    /// The platform a doc column for release `v` stands for.
    pub fn doc_platform(&self, v: &str) -> Platform {
        let (os_version, libc_version) = match self.spec.version_of {
            VersionOf::Os => (Some(v.to_string()), None),
            VersionOf::Libc => (None, Some(v.to_string())),
        };
        Platform {
            os: self.spec.os.clone(),
            os_version,
            kernel: None,
            arch: String::from("any"),
            target: String::from("any"),
            libc: Libc {
                name: self.spec.libc.clone(),
                version: libc_version,
                detail: None,
            },
            provenance: Provenance {
                kind: String::from("doc"),
                image: None,
                host: None,
            },
        }
    }
}

impl Docs {
    /// Reads `targets/*/platform.yaml`. A missing folder gives no families.
    pub fn load(targets: &Path) -> Result<Docs, MatrixError> {
        let files = super::load::list_dir(targets, |dir| {
            let file = dir.join("platform.yaml");
            file.is_file().then_some(file)
        })?;
        let mut families: Vec<Family> = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).map_err(|source| MatrixError::Io {
                path: file.clone(),
                source,
            })?;
            let family = Family::parse(&file, &text)?;
            let folder = file.parent().and_then(Path::file_name);
            if folder.is_some_and(|f| *f != *family.spec.family) {
                return Err(claims_error(
                    &file,
                    format!("family {:?} does not match its folder", family.spec.family),
                ));
            }
            if let Some(other) = families
                .iter()
                .find(|f| f.spec.family == family.spec.family)
            {
                return Err(MatrixError::DuplicateFamily {
                    family: family.spec.family.clone(),
                    first: other.file.clone(),
                    second: file,
                });
            }
            families.push(family);
        }
        Ok(Docs { families })
    }

    /// The family a report's platform belongs to.
    pub fn family_of(&self, p: &Platform) -> Option<&Family> {
        self.families.iter().find(|f| f.matches(p))
    }
}
