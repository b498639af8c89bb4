//! The documented claims on the `libc` subject's outcomes, as the suite reads them:
//! `targets/<family>/expectations/claims.yaml`, generated from the family's `platform.yaml` by
//! `spawnmatrix expect --claims` (never written by hand; `tests/expectations.rs` fails when
//! it is stale). A family nothing has run on yet is judged by what its sources say: a run
//! that differs from a claim fails, naming the claim, where it is, its source and what was
//! observed, which is the table fix to make (or the claim to check again).
//!
//! Each case lists its claims with their release ranges, as the claims write them (`from`
//! inclusive, `before` exclusive or `through` inclusive); the first one covering this
//! platform's release applies, as in the matrix ([`crate::version::covers`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::load::LoadError;
use super::outcome::Outcome;
use super::sys::LibcId;
use crate::version::{covers, Release, Upper, Version};

/// One family's generated file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimsFile {
    pub family: String,
    /// What the ranges compare against: `os` (the OS release) or `libc` (its version).
    pub release_of: String,
    /// The claims' file, relative to the checkout (`targets/macos/platform.yaml`).
    pub generated_from: String,
    /// Case id → its claims, in the order of the claims' file.
    pub cases: BTreeMap<String, Vec<Claimed>>,
}

/// One claim on one case's `libc` outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claimed {
    pub outcome: String,
    /// The outcome is outside what POSIX allows for the case: a run that gives it is a
    /// `known-deviation`, documented.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outside_posix: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<String>,
    /// The claims' file: `targets/macos/platform.yaml` (the row and range find the claim
    /// in it; no line number, which every edit above it would change).
    pub at: String,
    /// Its source: key, note and citations.
    pub source: String,
}

impl Claimed {
    /// Whether this claim's range holds for `release`.
    pub fn covers(&self, release: &Release) -> bool {
        let v = |t: &Option<String>| t.as_deref().and_then(Version::parse);
        let upper = match (v(&self.before), v(&self.through)) {
            (Some(b), _) => Some(Upper::Before(b)),
            (None, Some(t)) => Some(Upper::Through(t)),
            (None, None) => None,
        };
        covers(v(&self.from).as_ref(), upper.as_ref(), release)
    }

    /// The range as the claim writes it: `from 10.5`, `from 1.7.26 before 3.1.7`.
    pub fn range(&self) -> String {
        let parts = [
            ("from", &self.from),
            ("before", &self.before),
            ("through", &self.through),
        ];
        let words: Vec<String> = parts
            .iter()
            .filter_map(|(w, v)| v.as_ref().map(|v| format!("{w} {v}")))
            .collect();
        match words.is_empty() {
            true => "every release".to_string(),
            false => words.join(" "),
        }
    }

    /// Why a run with `observed` fails this claim, in words that say what to change.
    pub fn differs(&self, case: &str, observed: &str) -> String {
        format!(
            "observed {observed}, but the documented claim cases.{case}.libc ({}, {}) says {}; \
             source {}. If the run is right, make the claim's value {observed} (or end its range) \
             and run `spawnmatrix expect --claims`",
            self.at,
            self.range(),
            self.outcome,
            self.source
        )
    }
}

/// `targets/<family>/expectations/claims.yaml`.
pub fn path_for(targets: &Path, family: &str) -> PathBuf {
    targets
        .join(family)
        .join("expectations")
        .join("claims.yaml")
}

impl ClaimsFile {
    /// The file at `path`, or `None` when there is none. Every case id must be one of
    /// `known_ids`, and every outcome and release must parse.
    pub fn load(path: &Path, known_ids: &[&str]) -> Result<Option<ClaimsFile>, LoadError> {
        let Some(text) = super::expectations::read_if_present(path)? else {
            return Ok(None);
        };
        let file: ClaimsFile = crate::yaml::from_str(path, &text)?;
        let invalid =
            |id: &str, message: String| super::expectations::invalid_at(path, &text, id, message);
        if !matches!(file.release_of.as_str(), "os" | "libc") {
            let message = format!("release_of is os or libc, not {:?}", file.release_of);
            return Err(invalid("release_of", message));
        }
        for (id, claims) in &file.cases {
            if !known_ids.contains(&id.as_str()) {
                return Err(invalid(id, format!("unknown case id `{id}`")));
            }
            for c in claims {
                if let Err(e) = c.outcome.parse::<Outcome>() {
                    return Err(invalid(id, e.to_string()));
                }
                for r in [&c.from, &c.before, &c.through].into_iter().flatten() {
                    if Version::parse(r).is_none() {
                        return Err(invalid(id, format!("{r:?} is not a release number")));
                    }
                }
            }
        }
        Ok(Some(file))
    }

    /// This platform's release as the claims compare it (`None`: unknown, so no claim
    /// applies).
    pub fn release_of(&self, libc: &LibcId) -> Option<Release> {
        let text = match self.release_of.as_str() {
            "os" => libc.os_version.as_deref(),
            _ => libc.raw_version.as_deref(),
        }?;
        Release::parse(text)
    }

    /// Each case's claim at `release`: the first one covering it.
    pub fn at(&self, release: &Release) -> BTreeMap<String, Claimed> {
        self.cases
            .iter()
            .filter_map(|(id, cs)| {
                let c = cs.iter().find(|c| c.covers(release))?;
                Some((id.clone(), c.clone()))
            })
            .collect()
    }

    /// The file's text, with a header that says where it came from.
    pub fn render(&self) -> Result<String, crate::yaml::YamlError> {
        let body = crate::yaml::to_string(self)?;
        Ok(format!(
            "# The documented claims on the `libc` subject's outcomes ({}), for the suite.\n\
             # Generated by `spawnmatrix expect --claims`; do not edit: change the claims.\n{body}",
            self.generated_from
        ))
    }
}
