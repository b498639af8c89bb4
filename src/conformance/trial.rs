//! One trial: a case spawned once through a subject, waited for and checked, and [`Run`],
//! what a variant of a case did. Shared by the plain runner and the scenarios, below both.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::case::{Case, Image};
use super::checks::{self, Ctx, Findings};
use super::outcome::Outcome;
use super::plan::Plan;
use super::setup;
use super::subject::{self, Spawner, Variant};
use super::template::Vars;

/// How long one spawned child may run before it is killed: 5 s, or
/// `$SPAWNMATRIX_CHILD_TIMEOUT` seconds on a slower machine (`ci/emulate.sh` under TCG, where
/// 48 concurrent spawns of `conc-multithread-spawn` overran 5 s). A hang guard, not a timing check.
pub fn child_timeout() -> Duration {
    let seconds = std::env::var("SPAWNMATRIX_CHILD_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    Duration::from_secs(seconds)
}

/// What one variant of one case did in the runner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub variant: String,
    pub outcome: String,
    pub facts: BTreeMap<String, Value>,
    pub failures: Vec<String>,
    pub notes: Vec<String>,
}

impl Run {
    pub(super) fn new(variant: &Variant, outcome: Outcome) -> Run {
        Run {
            variant: variant.label(),
            outcome: outcome.to_string(),
            facts: BTreeMap::new(),
            failures: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// Adds findings to a run; facts keep no temporary paths.
pub fn absorb(run: &mut Run, findings: Findings, vars: &Vars) {
    for (name, value) in findings.facts {
        let value = match value {
            Value::String(s) => Value::String(vars.unexpand(&s)),
            other => other,
        };
        run.facts.insert(vars.unexpand(&name), value);
    }
    run.failures
        .extend(findings.failures.into_iter().map(|f| vars.unexpand(&f)));
}

/// One spawn, waited for and checked. `extra` is appended to argv; `tag` names the report.
pub fn spawn_and_check(
    case: &Case,
    spawner: &dyn Spawner,
    plan: &Plan,
    vars: &Vars,
    tag: &str,
    extra: &[String],
) -> (Outcome, Findings, Vec<String>) {
    let report = PathBuf::from(format!("{}/report-{tag}.json", vars.tmp));
    let argv = plan.argv(&report, extra);
    let envp = plan.envp(&report);
    let mut notes = Vec::new();
    let mut findings = Findings::default();
    let mut pid = None;
    let limited = case.setup.rlimit_nofile_soft.map(setup::set_nofile_soft);
    let spawned = spawner.spawn(&argv, envp.as_deref());
    match limited {
        Some(Ok(old)) => {
            if let Err(e) = setup::set_nofile_soft(old) {
                findings.failures.push(e);
            }
        }
        Some(Err(e)) => findings.failures.push(e),
        None => {}
    }
    let mut outcome = match spawned {
        Err(ns) => {
            notes.extend(ns.note);
            ns.outcome
        }
        Ok(mut child) => {
            pid = child.pid();
            match subject::wait_with_timeout(child.as_mut(), child_timeout()) {
                Ok(outcome) => outcome,
                Err(e) => {
                    findings.failures.push(e);
                    Outcome::Skipped("timeout".into())
                }
            }
        }
    };
    if case.image == Image::Helper {
        match crate::child::ChildState::read(&report) {
            Ok(state) if case.expect.child.kernel.is_some() && state.kernel_signals.is_none() => {
                notes.push("the helper could not ask the kernel for its signal state".into());
                outcome = Outcome::Skipped("no-kernel-signals".into());
            }
            Ok(state) => {
                let ctx = Ctx {
                    vars,
                    passed_argv: &argv,
                    argv_as_passed: case.expect.child.argv.is_none() && case.argv.is_none(),
                };
                findings.merge(checks::child(&case.expect.child, &state, &ctx));
                findings.merge(checks::identity(&state, pid));
            }
            Err(_) if outcome != Outcome::Ok => {}
            Err(e) => findings.failures.push(format!(
                "the helper exited 0 but its report is unusable: {e}"
            )),
        }
    }
    (outcome, findings, notes)
}
