//! The probe report: what one run on one platform observed. It is the unit the matrix merges.
//!
//! The JSON form is versioned (`schema_version`) and described by `schema/report.v1.schema.json`.
//! Unknown fields are rejected so that a typo in a stored report is an error, not a silent gap.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod fuzz;
mod guest;
mod sandbox;
mod unique_keys;

pub use fuzz::{Fuzz, FuzzExplained, FuzzFinding, FuzzSubject};
pub use guest::{Guest, ProgramRun};
pub use sandbox::SandboxRun;

/// Bumped whenever a field changes meaning or a required field is added.
pub const SCHEMA_VERSION: u32 = 1;

/// The version of the suite that produced a report (the crate version).
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    pub schema_version: u32,
    pub suite_version: String,
    /// RFC 3339, UTC.
    pub generated_at: String,
    pub platform: Platform,
    /// Keyed by function or flag name (`posix_spawn_file_actions_addchdir_np`,
    /// `POSIX_SPAWN_SETSID`).
    #[serde(deserialize_with = "unique_keys::deserialize")]
    pub capabilities: BTreeMap<String, Capability>,
    /// Keyed by case id, then subject (`libc`, `shared`, `std`).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique_keys::deserialize"
    )]
    pub cases: BTreeMap<String, BTreeMap<String, CaseResult>>,
    /// The strategy `spawn::Strategy::Auto` took for a plain spawn in the probing process
    /// (`clone3`, `clone_vfork`, `posix_spawn`, `fork`): observed, so absent in link and doc
    /// reports and when the probe could not spawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_strategy: Option<String>,
    /// Spawn cost measurements, when `spawnmatrix bench` ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perf: Option<Perf>,
    /// A differential-fuzzing campaign's outcome, when one was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<Fuzz>,
    /// Keyed by seccomp profile (`clone3-enosys`, ...): the shared spawn run under it on this
    /// machine, when the run recorded that.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique_keys::deserialize"
    )]
    pub sandbox: BTreeMap<String, SandboxRun>,
    /// How the emulated guest that made this report ran (`ci/emulate.sh`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guest: Option<Guest>,
}

/// Where a report was observed: the matrix column it lands in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Platform {
    /// `linux`, `macos`, `freebsd`, `cygwin`, ...
    pub os: String,
    /// Distribution or OS release (`debian 12`, `14.1-RELEASE`, `15.2`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os_version: Option<String>,
    /// Kernel release (`uname -r`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// `x86_64`, `aarch64`, ...
    pub arch: String,
    /// The Rust target triple the probe was built for.
    pub target: String,
    pub libc: Libc,
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Libc {
    /// `glibc`, `musl`, `libSystem`, `freebsd-libc`, `cygwin`, ...
    pub name: String,
    /// The version, when the libc reports one or it can be inferred (then `detail` says how).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// How the version was found, or why it is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// How a report came to be.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// `native`, `container`, `ci` or `emulated` (evidence `run`), `link` (linked against a
    /// sysroot) or
    /// `doc` (documented; every capability then names its `source`).
    pub kind: String,
    /// Container image (`spawnmatrix/debian:bullseye`), CI runner label (`macos-14`), or
    /// emulator and kernel package for `emulated`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Free text: the machine or job that ran it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

impl Platform {
    /// The seccomp profile the run was confined by, when its image label names one
    /// (`spawnmatrix/debian:bullseye seccomp=docker-default`, as `ci/containers.sh` labels
    /// every container). Under such a filter a `kernel.*` cell is the sandbox's answer, not
    /// the kernel's (Docker's default answers `clone3` with `ENOSYS`).
    pub fn seccomp_profile(&self) -> Option<&str> {
        let image = self.provenance.image.as_deref()?;
        image
            .split_whitespace()
            .find_map(|w| w.strip_prefix("seccomp="))
    }

    /// A stable column key: `os[-os_version]-arch-libc[-libc_version]@provenance[:image]`.
    ///
    /// The OS version is part of the key only when it is a release number (`14.1`, `10.15`):
    /// a distribution's name (`debian 12`, `Debian GNU/Linux forky/sid`) changes when a suite
    /// is renamed while the libc release and the image name do not. A lower bound (`>=1.2.3`)
    /// becomes `ge1.2.3`; other characters outside `[A-Za-z0-9._+-]` become `_`.
    pub fn key(&self) -> String {
        fn part(text: &str) -> String {
            let text = text.trim();
            let text = text
                .strip_prefix(">=")
                .map_or_else(|| text.to_string(), |v| format!("ge{v}"));
            text.chars()
                .map(|c| match c {
                    'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '+' | '-' => c,
                    _ => '_',
                })
                .collect()
        }
        let mut key = part(&self.os);
        if let Some(v) = self
            .os_version
            .as_deref()
            .filter(|v| v.starts_with(|c: char| c.is_ascii_digit()))
        {
            key.push('-');
            key.push_str(&part(v));
        }
        key.push('-');
        key.push_str(&part(&self.arch));
        key.push('-');
        key.push_str(&part(&self.libc.name));
        if let Some(v) = &self.libc.version {
            key.push('-');
            key.push_str(&part(v));
        }
        key.push('@');
        key.push_str(&part(&self.provenance.kind));
        if let Some(image) = &self.provenance.image {
            key.push(':');
            key.push_str(&image.replace(char::is_whitespace, "_"));
        }
        key
    }
}

/// One function or flag as this process found it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capability {
    pub available: bool,
    /// How it was found: `dlsym`, `static-symbol`, `setflags`, `kernel`, ... (see `caps`).
    pub how: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Where a documented claim comes from (repository and file, release notes, man page).
    /// Required for `doc` evidence, absent for what was observed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl Capability {
    /// All of `caps::detect()`'s answers in report form, less the unknown ones (a kernel
    /// probe that failed for want of resources, that could not be made or that was refused): a report states
    /// only what was observed.
    pub fn observed_all(caps: crate::caps::Capabilities) -> BTreeMap<String, Capability> {
        caps.into_iter()
            .filter(|(_, c)| {
                ![
                    crate::caps::PROBE_FAILED,
                    crate::caps::UNPROBED,
                    crate::caps::REFUSED,
                ]
                .contains(&c.how.as_str())
            })
            .map(|(name, c)| (name, c.into()))
            .collect()
    }
}

/// What this process observed: never documented, so `source` stays empty.
impl From<crate::caps::Capability> for Capability {
    fn from(c: crate::caps::Capability) -> Capability {
        Capability {
            available: c.available,
            how: c.how,
            note: c.note,
            source: None,
        }
    }
}

/// What one subject did for one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseResult {
    /// In the outcome grammar: `ok`, `add:ERRNO`, `returned:ERRNO`, `child-exit:N`,
    /// `child-signal:SIGNAME`, `unsupported`, `skipped:REASON`.
    pub outcome: String,
    /// For `ok`: the facts that were checked, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub facts: BTreeMap<String, serde_json::Value>,
    /// Whether the outcome met the case's expectation for this platform.
    pub verdict: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Spawn cost on this platform, from `spawnmatrix bench`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Perf {
    /// The strategy every ratio is divided by (the fastest raw method measured in the run).
    pub floor: String,
    pub iterations: u32,
    /// The one CPU the measuring thread and its children were pinned to; absent when the
    /// run was not pinned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned_cpu: Option<u32>,
    pub entries: Vec<PerfEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerfEntry {
    pub strategy: String,
    /// The parent's memory, MiB: touched, or laid out as `shape` says.
    pub parent_mib: u64,
    /// How that memory is laid out; absent for plain touched memory.
    #[serde(default, skip_serializing_if = "ParentShape::is_touched")]
    pub shape: ParentShape,
    pub min_us: f64,
    pub median_us: f64,
    pub p90_us: f64,
    /// `median_us` divided by the floor's median at the same parent size.
    pub ratio_to_floor: f64,
}

/// How the benchmark's parent memory is laid out: the shapes the fork literature measures.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ParentShape {
    /// One private anonymous mapping, every page written: page tables a fork must copy.
    #[default]
    Touched,
    /// Many small mappings, alternately read-only and read-write, every page written: a fork
    /// also copies one VMA per mapping.
    Fragmented,
    /// One `PROT_NONE` reservation, never touched: address space without page tables.
    Reserved,
}

impl ParentShape {
    /// The default shape, left out of serialised entries.
    pub fn is_touched(&self) -> bool {
        *self == ParentShape::Touched
    }

    /// The name used in `--sizes`, row ids and JSON.
    pub fn name(self) -> &'static str {
        match self {
            ParentShape::Touched => "touched",
            ParentShape::Fragmented => "fragmented",
            ParentShape::Reserved => "reserved",
        }
    }
}

/// The current time in RFC 3339, UTC, to the second.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}
