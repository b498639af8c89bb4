//! The conformance suite: cases as data (`conformance/cases/**.yaml`), run against three
//! subjects — the raw libc (`libc`), this crate's spawn (`shared`) and
//! `std::process::Command` (`std`) — each observation one string in the outcome grammar.
//!
//! - [`case`]: the schema; [`load`]: reading and checking case files.
//! - [`Suite`]: the cases plus the expectation file that applies here.
//! - [`run_trial`]: one case for one subject, in a fresh runner process ([`runner`]).
//! - [`run_for_report`]: every trial, for `spawnmatrix probe --json`.
//! - [`expectations`]: per-target recorded outcomes of the `libc` subject; [`claims`]: the
//!   documented ones, generated from the family's claims.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub mod case;
mod checks;
pub mod claims;
pub mod expectations;
pub mod load;
mod names;
pub mod outcome;
mod plan;
mod residue;
pub mod runner;
mod scenario;
mod setup;
mod subject;
pub mod sys;
mod template;
pub mod trial;
pub mod verdict;

pub use load::{LoadError, LoadedCase};
pub use names::signal_name;
pub use runner::main_if_runner;

use crate::report::CaseResult;
use expectations::ExpectationFile;
use subject::Variant;
use sys::LibcId;

/// The subjects, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject {
    Libc,
    /// `spawnmatrix::spawn`: one trial runs every strategy available here, one after the
    /// other in the same runner; the report holds their common outcome.
    Shared,
    Std,
}

impl Subject {
    pub const ALL: [Subject; 3] = [Subject::Libc, Subject::Shared, Subject::Std];

    pub fn name(self) -> &'static str {
        match self {
            Subject::Libc => "libc",
            Subject::Shared => "shared",
            Subject::Std => "std",
        }
    }

    /// Why this subject cannot express `case` at all (so no trial is run), or `None`.
    pub fn inexpressible(self, case: &case::Case) -> Option<String> {
        match self {
            Subject::Libc => None,
            Subject::Shared => subject::shared_expressible(case).err(),
            Subject::Std => subject::std_expressible(case).err(),
        }
    }

    fn variants(self) -> Vec<Variant> {
        match self {
            Subject::Libc => vec![Variant::Libc],
            Subject::Shared => subject::shared_strategies()
                .into_iter()
                .map(Variant::Shared)
                .collect(),
            Subject::Std => vec![Variant::Std],
        }
    }
}

/// The loaded cases and what they are judged against here.
#[derive(Debug, Clone)]
pub struct Suite {
    pub cases: Vec<LoadedCase>,
    pub libc: LibcId,
    /// The expectation file that applies to this libc (it may not exist).
    pub expectation_path: PathBuf,
    pub expectations: Option<ExpectationFile>,
    /// The family's generated claims file (it may not exist) and, case by case, the claim
    /// that covers this release.
    pub claims_path: PathBuf,
    pub claimed: BTreeMap<String, claims::Claimed>,
}

impl Suite {
    /// Loads the cases in `cases_dir` and this libc's expectation file under `targets_dir`.
    pub fn load(cases_dir: &Path, targets_dir: &Path) -> Result<Suite, LoadError> {
        Suite::load_for(cases_dir, targets_dir, sys::libc_identity())
    }

    /// [`Suite::load`] for the libc `libc` (a test judges another family's files so).
    pub fn load_for(
        cases_dir: &Path,
        targets_dir: &Path,
        libc: LibcId,
    ) -> Result<Suite, LoadError> {
        let cases = load::load_dir(cases_dir)?;
        if cases.is_empty() {
            return Err(LoadError::NoCases {
                dir: cases_dir.to_path_buf(),
            });
        }
        let expectation_path = expectations::path_for(targets_dir, &libc);
        let ids: Vec<&str> = cases.iter().map(|c| c.case.id.as_str()).collect();
        let expectations = expectations::load(&expectation_path, &ids)?;
        let claims_path = claims::path_for(targets_dir, libc.family);
        let claimed = match claims::ClaimsFile::load(&claims_path, &ids)? {
            Some(file) => file
                .release_of(&libc)
                .map(|release| file.at(&release))
                .unwrap_or_default(),
            None => BTreeMap::new(),
        };
        Ok(Suite {
            cases,
            libc,
            expectation_path,
            expectations,
            claims_path,
            claimed,
        })
    }

    /// The default locations (see [`load::default_dir`], [`expectations::default_targets_dir`]).
    pub fn load_default() -> Result<Suite, LoadError> {
        Suite::load(&load::default_dir(), &expectations::default_targets_dir())
    }
}

/// How trials run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The executable started as runner; it must call [`main_if_runner`] first thing.
    pub runner: PathBuf,
    /// The limit for one runner (all its spawns).
    pub timeout: Duration,
}

impl Options {
    /// The current executable as runner. Installs the child helper first, once, so the
    /// runners find it in place instead of each writing a copy. The limit is 60 s, or
    /// `$SPAWNMATRIX_RUNNER_TIMEOUT` seconds on a slower machine (`ci/emulate.sh` under TCG):
    /// it only catches hangs, it is no performance check.
    pub fn current() -> std::io::Result<Options> {
        crate::child::helper_path()?;
        let seconds = std::env::var("SPAWNMATRIX_RUNNER_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60);
        Ok(Options {
            runner: own_executable()?,
            timeout: Duration::from_secs(seconds),
        })
    }
}

/// This executable, to start again as a runner. Linux answers `current_exe` from
/// `/proc/self/exe`; without `/proc` mounted (a chroot, a bare container) the path in
/// `argv[0]` is taken when it names a file, as cargo and the test harness start binaries by
/// path. Other systems ask the kernel (FreeBSD's sysctl, macOS's dyld) and need no fallback.
fn own_executable() -> std::io::Result<PathBuf> {
    std::env::current_exe().or_else(|e| {
        std::env::args_os()
            .next()
            .map(PathBuf::from)
            .filter(|p| p.components().count() > 1 && p.is_file())
            .map(std::path::absolute)
            .unwrap_or(Err(e))
    })
}

/// Runs `case` for `subject` in a runner process and judges it.
pub fn run_trial(
    suite: &Suite,
    case: &LoadedCase,
    subject: Subject,
    options: &Options,
) -> CaseResult {
    if let Some(why) = subject.inexpressible(&case.case) {
        return CaseResult {
            outcome: "skipped:not-expressible".into(),
            facts: BTreeMap::new(),
            verdict: verdict::NOT_RUN.into(),
            note: Some(why),
        };
    }
    let runs = match runner::run_isolated(
        &options.runner,
        &case.file,
        &subject.variants(),
        options.timeout,
    ) {
        Ok(runs) => runs,
        Err(e) => {
            return CaseResult {
                outcome: "skipped:runner-failed".into(),
                facts: BTreeMap::new(),
                verdict: verdict::FAIL.into(),
                note: Some(e),
            }
        }
    };
    let Some(run) = runs.first() else {
        return CaseResult {
            outcome: "skipped:no-run".into(),
            facts: BTreeMap::new(),
            verdict: verdict::FAIL.into(),
            note: None,
        };
    };
    match subject {
        Subject::Libc => verdict::libc(
            &case.case,
            run,
            suite.expectations.as_ref(),
            suite.claimed.get(&case.case.id),
        ),
        Subject::Shared => verdict::shared(&case.case, &runs),
        Subject::Std => verdict::std(&case.case, run),
    }
}

/// Every case for the given subjects, keyed by case id then subject name; trials run on
/// `parallel` threads.
pub fn run_subjects(
    suite: &Suite,
    options: &Options,
    subjects: &[Subject],
    parallel: usize,
) -> BTreeMap<String, BTreeMap<String, CaseResult>> {
    let jobs: Vec<(&LoadedCase, Subject)> = suite
        .cases
        .iter()
        .flat_map(|c| subjects.iter().map(move |s| (c, *s)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(BTreeMap::<String, BTreeMap<String, CaseResult>>::new());
    std::thread::scope(|s| {
        for _ in 0..parallel.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((case, subject)) = jobs.get(i) else {
                    break;
                };
                let result = run_trial(suite, case, *subject, options);
                if let Ok(mut map) = results.lock() {
                    map.entry(case.case.id.clone())
                        .or_default()
                        .insert(subject.name().to_string(), result);
                }
            });
        }
    });
    results.into_inner().unwrap_or_default()
}

/// The `cases` part of a probe report: the cases in `cases_dir` judged against this libc's
/// expectation file under `targets_dir`, with this executable as runner (its `main` must
/// call [`main_if_runner`]).
pub fn run_for_report(
    cases_dir: &Path,
    targets_dir: &Path,
) -> Result<BTreeMap<String, BTreeMap<String, CaseResult>>, Box<dyn std::error::Error>> {
    let suite = Suite::load(cases_dir, targets_dir)?;
    let options = Options::current()?;
    let parallel = std::thread::available_parallelism().map_or(2, |n| n.get());
    Ok(run_subjects(&suite, &options, &Subject::ALL, parallel))
}
