//! Unit tests for the matrix: fixtures shared by the per-topic files.

mod diff;
mod docs;
mod load;
mod merge;
mod render;
mod shared;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::docs::{Docs, Family};
use super::load::SourcedReport;
use crate::report::{Capability, CaseResult, Libc, Platform, Provenance, Report};

/// A report for `libc` `version` on Linux with provenance `kind`, no capabilities yet.
pub fn report(libc: &str, version: &str, kind: &str) -> Report {
    Report {
        schema_version: crate::report::SCHEMA_VERSION,
        suite_version: String::from("0.1.0"),
        generated_at: String::from("2026-11-30T07:00:00Z"),
        platform: Platform {
            os: String::from("linux"),
            os_version: Some(String::from("debian 12")),
            kernel: None,
            arch: String::from("x86_64"),
            target: String::from("x86_64-unknown-linux-gnu"),
            libc: Libc {
                name: libc.to_string(),
                version: Some(version.to_string()),
                detail: None,
            },
            provenance: Provenance {
                kind: kind.to_string(),
                image: None,
                host: None,
            },
        },
        capabilities: BTreeMap::new(),
        cases: BTreeMap::new(),
        auto_strategy: None,
        perf: None,
        fuzz: None,
        sandbox: Default::default(),
        guest: None,
    }
}

pub fn with_cap(mut r: Report, name: &str, available: bool) -> Report {
    r.capabilities.insert(
        name.to_string(),
        Capability {
            available,
            how: String::from("dlsym"),
            note: None,
            source: None,
        },
    );
    r
}

pub fn with_case(mut r: Report, id: &str, subject: &str, outcome: &str, verdict: &str) -> Report {
    r.cases.entry(id.to_string()).or_default().insert(
        subject.to_string(),
        CaseResult {
            outcome: outcome.to_string(),
            facts: BTreeMap::new(),
            verdict: verdict.to_string(),
            note: None,
        },
    );
    r
}

pub fn sourced(name: &str, report: Report) -> SourcedReport {
    SourcedReport {
        origin: PathBuf::from(name),
        report,
    }
}

/// A glibc family: addchdir_np since 2.29, and one documented case outcome.
pub const GLIBC_YAML: &str = r#"
family: linux-glibc
title: glibc
description: GNU C library on Linux.
match: { os: [linux], libc: [glibc] }
version_of: libc
os: linux
libc: glibc
doc_columns: ["2.28", "2.29"]
checked: "2026-11-30"
sources:
  GL-NEWS:
    cite: bminor/glibc@04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:NEWS:10
    note: the NEWS file
claims:
  - row: functions.posix_spawn_file_actions_addchdir_np
    since: "2.29"
    source: GL-NEWS
  - row: cases.exec-enoent.libc
    value: returned:ENOENT
    from: "2.24"
    source: GL-NEWS
    note: reaped internally
"#;

pub fn glibc_docs() -> Docs {
    Docs {
        families: vec![
            Family::parse(Path::new("targets/linux-glibc/platform.yaml"), GLIBC_YAML).unwrap(),
        ],
    }
}
mod summary;
