//! The suite's view of the documented claims: for each family whose `platform.yaml` claims
//! outcomes of the `libc` subject (`cases.<id>.libc` rows), the file
//! `targets/<family>/expectations/claims.yaml` the suite judges a run by
//! ([`crate::conformance::claims`]), written by `spawnmatrix expect --claims`. Generated, so a
//! claim and what the suite expects cannot drift apart: `tests/expectations.rs` fails when
//! the committed files are not what the claims give.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::conformance::claims::{self, Claimed, ClaimsFile};
use crate::conformance::LoadedCase;
use crate::matrix::docs::{Docs, Family};
use crate::matrix::{MatrixError, Value};

/// The claims file of every family with claims on the `libc` subject's outcomes, with the
/// path it belongs at under `targets`.
pub fn files(
    targets: &Path,
    cases: &[LoadedCase],
) -> Result<Vec<(PathBuf, ClaimsFile)>, MatrixError> {
    let docs = Docs::load(targets)?;
    let mut out = Vec::new();
    for family in &docs.families {
        if let Some(file) = of_family(targets, family, cases)? {
            out.push((claims::path_for(targets, &family.spec.family), file));
        }
    }
    Ok(out)
}

/// One family's file, `None` when it claims no `libc` outcome.
fn of_family(
    targets: &Path,
    family: &Family,
    cases: &[LoadedCase],
) -> Result<Option<ClaimsFile>, MatrixError> {
    let shown = family
        .file
        .strip_prefix(targets.parent().unwrap_or(targets))
        .unwrap_or(&family.file)
        .display()
        .to_string();
    let fail = |message: String| MatrixError::Claims {
        path: family.file.clone(),
        message,
    };
    let mut by_case: BTreeMap<String, Vec<Claimed>> = BTreeMap::new();
    for c in &family.spec.claims {
        for row in c.row_ids() {
            let Some(id) = row
                .strip_prefix("cases.")
                .and_then(|r| r.strip_suffix(".libc"))
            else {
                continue;
            };
            let Some(value) = &c.value else { continue };
            let Value::Text(outcome) = value else {
                return Err(fail(format!("{row}: an outcome is text, not {value}")));
            };
            let case = cases
                .iter()
                .find(|l| l.case.id == id)
                .ok_or_else(|| fail(format!("{row}: no case {id} in the suite")))?;
            by_case.entry(id.to_string()).or_default().push(Claimed {
                outcome: outcome.clone(),
                outside_posix: !case.case.expect.any_of.contains(outcome)
                    && outcome != "unsupported",
                from: c.since.clone().or(c.from.clone()),
                before: c.before.clone(),
                through: c.through.clone(),
                at: shown.clone(),
                source: family.source_text(&c.source),
            });
        }
    }
    if by_case.is_empty() {
        return Ok(None);
    }
    Ok(Some(ClaimsFile {
        family: family.spec.family.clone(),
        release_of: family.spec.version_of.name().to_string(),
        generated_from: shown,
        cases: by_case,
    }))
}
