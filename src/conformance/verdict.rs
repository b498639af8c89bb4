//! Turning a subject's runs into a report entry: the outcome, the checked facts and whether
//! that meets POSIX, the target's expectation file (`libc`), the documented normalized outcome
//! (`shared`) or std's own documentation (`std`).

use std::collections::BTreeMap;

use super::case::Case;
use super::claims::Claimed;
use super::expectations::ExpectationFile;
use super::outcome::Outcome;
use super::trial::Run;
use crate::report::CaseResult;

/// The verdicts a report can carry.
pub const PASS: &str = "pass";
pub const FAIL: &str = "fail";
/// Outside POSIX, but recorded as this target's known behaviour in its expectation file.
pub const KNOWN_DEVIATION: &str = "known-deviation";
pub use super::case::RECORDED;
pub const NOT_RUN: &str = "not-run";

/// Whether a verdict lets the trial pass.
pub fn passes(verdict: &str) -> bool {
    verdict != FAIL
}

fn result(run: &Run, verdict: &str, mut notes: Vec<String>) -> CaseResult {
    notes.extend(run.notes.iter().cloned());
    notes.extend(run.failures.iter().cloned());
    CaseResult {
        outcome: run.outcome.clone(),
        facts: if run.outcome == "ok" {
            run.facts.clone()
        } else {
            BTreeMap::new()
        },
        verdict: verdict.to_string(),
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    }
}

fn not_run(outcome: &str) -> bool {
    outcome.parse::<Outcome>().is_ok_and(|o| o.is_not_run())
}

/// The `libc` subject: judged by the target's recorded outcomes (`expectations`), the
/// documented claim that covers this release (`claim`, [`super::claims`]) and POSIX. A run
/// that differs from either fails; an outcome outside POSIX that one of them records is a
/// known deviation.
pub fn libc(
    case: &Case,
    run: &Run,
    expectations: Option<&ExpectationFile>,
    claim: Option<&Claimed>,
) -> CaseResult {
    let allowed = case.expect.any_of.contains(&run.outcome);
    let entry = expectations.and_then(|e| e.cases.get(&case.id));
    let mut notes = Vec::new();
    // A skip says something about this machine (privileges), not the libc: it is not
    // compared with the expectation file, which never records skips.
    let skipped = matches!(run.outcome.parse::<Outcome>(), Ok(Outcome::Skipped(_)));
    let verdict = match (expectations, entry) {
        _ if skipped && run.failures.is_empty() => NOT_RUN,
        _ if claim.is_some_and(|c| c.outcome != run.outcome) => {
            if let Some(c) = claim {
                notes.push(c.differs(&case.id, &run.outcome));
            }
            FAIL
        }
        (Some(_), Some(e)) if e.outcome != run.outcome => {
            notes.push(format!("the expectation file says {}", e.outcome));
            FAIL
        }
        _ if not_run(&run.outcome) && run.failures.is_empty() => NOT_RUN,
        _ if !run.failures.is_empty() => FAIL,
        (_, Some(e)) if !allowed && e.outside_posix => KNOWN_DEVIATION,
        _ if !allowed && claim.is_some() => {
            if let Some(c) = claim {
                notes.push(format!("outside POSIX, as documented ({})", c.at));
            }
            KNOWN_DEVIATION
        }
        _ if !allowed => {
            notes.push(format!("POSIX allows only {:?}", case.expect.any_of));
            FAIL
        }
        (Some(file), None) => {
            notes.push(format!(
                "no entry in the expectation file for {} (run `spawnmatrix expect`)",
                file.libc
            ));
            FAIL
        }
        (None, _) => {
            notes.push(match claim {
                Some(c) => format!("as documented ({})", c.at),
                None => "no expectation file for this target".into(),
            });
            PASS
        }
        (Some(_), Some(_)) => PASS,
    };
    result(run, verdict, notes)
}

/// The documented normalized outcome of the shared implementation for `case`.
pub fn shared_expected(case: &Case) -> Option<&str> {
    case.expect
        .shared
        .as_deref()
        .or(match case.expect.any_of.as_slice() {
            [only] => Some(only.as_str()),
            _ => None,
        })
}

/// The facts on which runs disagree with the first run that had the same outcome: the
/// library promises the same observable behaviour under every strategy (different outcomes
/// are judged by the outcome alone).
fn disagreements(runs: &[Run]) -> Vec<String> {
    let Some(first) = runs.iter().find(|r| !not_run(&r.outcome)) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for run in runs.iter().filter(|r| r.outcome == first.outcome) {
        let names = first.facts.keys().chain(run.facts.keys());
        let differing: std::collections::BTreeSet<&String> = names
            .filter(|n| first.facts.get(*n) != run.facts.get(*n))
            .collect();
        for name in differing {
            let show = |r: &Run| r.facts.get(name).map_or("absent".into(), |v| v.to_string());
            found.push(format!(
                "{name}: {} under {}, {} under {}",
                show(run),
                run.variant,
                show(first),
                first.variant
            ));
        }
    }
    found
}

/// The `shared` subject: every strategy must give the documented normalized outcome, unless
/// the case says `shared: recorded` (nothing documented: outcomes are listed, checks still
/// count), and the same facts.
pub fn shared(case: &Case, runs: &[Run]) -> CaseResult {
    let expected = shared_expected(case);
    let recorded = expected == Some(RECORDED);
    let mut notes = Vec::new();
    let disagree = disagreements(runs);
    let mut failed = !disagree.is_empty();
    notes.extend(
        disagree
            .into_iter()
            .map(|d| format!("the strategies disagree on {d}")),
    );
    for run in runs {
        // `unsupported` and skips (this machine cannot run the case) are not failures.
        let ok = recorded || Some(run.outcome.as_str()) == expected || not_run(&run.outcome);
        if !ok || !run.failures.is_empty() {
            failed = true;
            notes.push(format!(
                "{}: {} (expected {expected:?}) {:?}",
                run.variant, run.outcome, run.failures
            ));
        }
    }
    let outcomes: Vec<&str> = runs.iter().map(|r| r.outcome.as_str()).collect();
    let first = runs.first();
    let verdict = match first {
        None => NOT_RUN,
        Some(_) if failed => FAIL,
        Some(r) if not_run(&r.outcome) => NOT_RUN,
        Some(_) if recorded => RECORDED,
        Some(_) => PASS,
    };
    notes.push(format!(
        "strategies: {}",
        runs.iter()
            .map(|r| format!("{}={}", r.variant, r.outcome))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let summary = Run {
        variant: "shared".into(),
        outcome: if outcomes.windows(2).all(|w| w[0] == w[1]) {
            outcomes
                .first()
                .map_or("skipped:no-strategy".into(), |o| o.to_string())
        } else {
            "skipped:strategies-disagree".into()
        },
        facts: first.map(|r| r.facts.clone()).unwrap_or_default(),
        failures: Vec::new(),
        notes: Vec::new(),
    };
    result(&summary, verdict, notes)
}

/// The `std` subject: fails only where std documents the outcome and breaks it.
pub fn std(case: &Case, run: &Run) -> CaseResult {
    let mut notes = Vec::new();
    let verdict = match &case.expect.std {
        _ if not_run(&run.outcome) && run.failures.is_empty() => NOT_RUN,
        Some(want) if *want != run.outcome || !run.failures.is_empty() => {
            notes.push(format!("std documents {want}"));
            FAIL
        }
        Some(_) => PASS,
        None => RECORDED,
    };
    result(run, verdict, notes)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use rstest::rstest;

    use super::{libc, shared, FAIL, KNOWN_DEVIATION, NOT_RUN, PASS};
    use crate::conformance::case::{Area, Case, Expect, SpawnFn};
    use crate::conformance::claims::Claimed;
    use crate::conformance::expectations::{Entry, ExpectationFile};
    use crate::conformance::trial::Run;

    fn case(any_of: &[&str]) -> Case {
        Case {
            id: "c".into(),
            title: String::new(),
            area: Area::ExecErrors,
            posix: "P12".into(),
            setup: Default::default(),
            actions: None,
            attrs: None,
            spawn: SpawnFn::PosixSpawn,
            program: "/x".into(),
            image: Default::default(),
            helper: Default::default(),
            args: vec![],
            argv: None,
            env: Default::default(),
            pid: Default::default(),
            repeat: 1,
            scenario: None,
            expect: Expect {
                any_of: any_of.iter().map(|s| s.to_string()).collect(),
                ..Default::default()
            },
        }
    }

    fn run(outcome: &str, failures: &[&str]) -> Run {
        Run {
            variant: "libc".into(),
            outcome: outcome.into(),
            facts: BTreeMap::new(),
            failures: failures.iter().map(|s| s.to_string()).collect(),
            notes: vec![],
        }
    }

    fn file(entry: Option<(&str, bool)>) -> ExpectationFile {
        ExpectationFile {
            libc: "glibc".into(),
            version: None,
            observed_on: "linux-x86_64".into(),
            cases: entry
                .map(|(o, dev)| {
                    BTreeMap::from([(
                        "c".to_string(),
                        Entry {
                            outcome: o.into(),
                            outside_posix: dev,
                        },
                    )])
                })
                .unwrap_or_default(),
        }
    }

    fn strategy_run(variant: &str, outcome: &str, fact: Option<&str>) -> Run {
        let mut r = run(outcome, &[]);
        r.variant = variant.into();
        if let Some(value) = fact {
            r.facts.insert("kernel ignored".into(), value.into());
        }
        r
    }

    /// Every strategy must give the same facts as the first that had the same outcome.
    #[rstest]
    #[case(Some("[]"), Some("[]"), "ok", PASS)]
    #[case(Some("[]"), Some("[SIG32]"), "ok", FAIL)]
    #[case(Some("[]"), None, "ok", FAIL)]
    #[case(Some("[]"), Some("[SIG32]"), "unsupported", PASS)]
    fn shared_strategies_agree(
        #[case] first: Option<&str>,
        #[case] second: Option<&str>,
        #[case] second_outcome: &str,
        #[case] verdict: &str,
    ) {
        let runs = [
            strategy_run("shared/clone3", "ok", first),
            strategy_run("shared/posix_spawn", second_outcome, second),
        ];
        let got = shared(&case(&["ok"]), &runs);
        assert_eq!(got.verdict, verdict, "{got:?}");
    }

    #[rstest]
    #[case(&["returned:ENOENT", "child-exit:127"], "returned:ENOENT", &[], None, PASS)]
    #[case(&["returned:ENOENT", "child-exit:127"], "child-exit:127", &[], Some(Some(("child-exit:127", false))), PASS)]
    #[case(&["returned:ENOENT", "child-exit:127"], "child-exit:127", &[], Some(Some(("returned:ENOENT", false))), FAIL)]
    #[case(&["returned:ENOENT"], "ok", &[], None, FAIL)]
    #[case(&["add:EBADF"], "returned:EBADF", &[], Some(Some(("returned:EBADF", true))), KNOWN_DEVIATION)]
    #[case(&["add:EBADF"], "returned:EBADF", &[], Some(Some(("returned:EBADF", false))), FAIL)]
    #[case(&["ok"], "ok", &["fd 3 open: observed true"], None, FAIL)]
    #[case(&["ok"], "ok", &[], Some(None), FAIL)]
    #[case(&["ok"], "unsupported", &[], None, NOT_RUN)]
    #[case(&["ok"], "unsupported", &[], Some(Some(("ok", false))), FAIL)]
    #[case(&["ok"], "skipped:needs-root", &[], Some(Some(("ok", false))), NOT_RUN)]
    #[case(&["ok"], "skipped:setup-failed", &["mkdir: EACCES"], None, FAIL)]
    fn libc_verdicts(
        #[case] any_of: &[&str],
        #[case] outcome: &str,
        #[case] failures: &[&str],
        #[case] expectation: Option<Option<(&str, bool)>>,
        #[case] verdict: &str,
    ) {
        let exp = expectation.map(file);
        let got = libc(&case(any_of), &run(outcome, failures), exp.as_ref(), None);
        assert_eq!(got.verdict, verdict, "{got:?}");
    }

    fn claimed(outcome: &str) -> Claimed {
        Claimed {
            outcome: outcome.into(),
            outside_posix: false,
            from: Some("10.5".into()),
            before: None,
            through: None,
            at: "targets/macos/platform.yaml".into(),
            source: "XNU-DUP2: dup2 (apple-oss-distributions/xnu@e3723e1f:kern_descrip.c:2468)"
                .into(),
        }
    }

    /// A documented claim judges the run where nothing was observed before: the claimed
    /// outcome passes (outside POSIX: a known deviation), another fails with a note that
    /// names the claim, where it is, its source and the observed outcome.
    #[rstest]
    #[case(&["ok"], "child-exit:7", "child-exit:7", None, KNOWN_DEVIATION)]
    #[case(&["ok"], "ok", "ok", None, PASS)]
    #[case(&["ok"], "child-exit:7", "ok", None, FAIL)]
    #[case(&["ok"], "unsupported", "unsupported", None, NOT_RUN)]
    #[case(&["ok"], "ok", "unsupported", None, FAIL)]
    #[case(&["ok"], "ok", "skipped:needs-root", None, NOT_RUN)]
    #[case(&["ok"], "returned:EBADF", "ok", Some(Some(("ok", false))), FAIL)]
    fn libc_verdicts_with_a_claim(
        #[case] any_of: &[&str],
        #[case] claim: &str,
        #[case] outcome: &str,
        #[case] expectation: Option<Option<(&str, bool)>>,
        #[case] verdict: &str,
    ) {
        let exp = expectation.map(file);
        let c = claimed(claim);
        let got = libc(&case(any_of), &run(outcome, &[]), exp.as_ref(), Some(&c));
        assert_eq!(got.verdict, verdict, "{got:?}");
        if verdict == FAIL {
            let note = got.note.unwrap_or_default();
            for part in [
                "cases.c.libc",
                &c.at,
                "XNU-DUP2",
                &format!("observed {outcome}"),
            ] {
                assert!(note.contains(part), "{note:?} lacks {part:?}");
            }
        }
    }
}
