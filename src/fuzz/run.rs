//! Runs sequences through every subject and compares each with the fork+exec reference.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::command::ChildCommand;
use super::explain::explain;
use super::fixture::{prepare_parent, Fixture};
use super::gen::{self, Generator};
use super::model::Sequence;
use super::observe::conclude;
use super::outcome::Outcome;
use super::summary::{record_explained, Divergence, Finding, Summary};
use super::sys::{self, Extensions};
use super::translate::{cloexec_strays, translate, Translation};
use super::{rawspawn, reap, reference};
use crate::spawn::os::unix::process::ExitStatusExt;
use crate::spawn::Strategy;

/// Who runs a sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// The fork+exec reference everything is compared with.
    Reference,
    /// The libc's `posix_spawn`.
    Libc,
    /// The shared implementation with this strategy forced.
    Shared(Strategy),
}

impl Subject {
    pub fn name(&self) -> String {
        match self {
            Subject::Reference => String::from("reference"),
            Subject::Libc => String::from("libc"),
            Subject::Shared(s) => format!("shared:{s}"),
        }
    }
}

/// Runs sequences; holds what every run shares.
pub struct Runner {
    helper: PathBuf,
    ext: Extensions,
    subjects: Vec<Subject>,
}

impl Runner {
    /// A runner for `subjects` (the reference is always run first). Sets the parent's signal
    /// dispositions the sequences rely on, so call it from a process that runs nothing else.
    pub fn new(helper: &Path, subjects: Vec<Subject>) -> io::Result<Runner> {
        prepare_parent()?;
        cloexec_strays(&[])?;
        Ok(Runner {
            helper: helper.to_path_buf(),
            ext: sys::extensions(),
            subjects: subjects
                .into_iter()
                .filter(|s| *s != Subject::Reference)
                .collect(),
        })
    }

    /// Every subject this build can run: the libc and each strategy of the shared
    /// implementation available here.
    pub fn all_subjects() -> Vec<Subject> {
        std::iter::once(Subject::Libc)
            .chain(Strategy::available().into_iter().map(Subject::Shared))
            .collect()
    }

    /// What `subject` makes of `seq`, in a fresh fixture.
    pub fn outcome(&self, subject: &Subject, seq: &Sequence) -> io::Result<Outcome> {
        let fx = Fixture::new(seq)?;
        let report = fx.report_path();
        let cmd = ChildCommand::helper(&self.helper, &report)?;
        let _inside = fx.enter()?;
        let started = match subject {
            Subject::Reference => reference::spawn(seq, &fx, &cmd)?,
            Subject::Libc => rawspawn::spawn(seq, &fx, &self.ext, &cmd)?,
            Subject::Shared(s) => return shared_outcome(*s, seq, &fx, &cmd),
        };
        match started {
            Ok(pid) => conclude(reap(pid)?, &report, &fx),
            Err(o) => Ok(o),
        }
    }

    /// Runs `seq` through the reference and every subject.
    pub fn compare(&self, seq: &Sequence) -> io::Result<Comparison> {
        let reference = self.outcome(&Subject::Reference, seq)?;
        let others = self
            .subjects
            .iter()
            .map(|s| Ok((s.name(), self.outcome(s, seq)?)))
            .collect::<io::Result<_>>()?;
        Ok(Comparison { reference, others })
    }

    /// Every subject's divergence from the reference for `seq`.
    pub fn divergences(&self, seq: &Sequence) -> io::Result<Vec<Divergence>> {
        Ok(self.compare(seq)?.divergences(seq))
    }
}

/// Runs the sequence's translation through the shared implementation with `strategy` forced.
fn shared_outcome(
    strategy: Strategy,
    seq: &Sequence,
    fx: &Fixture,
    cmd: &ChildCommand,
) -> io::Result<Outcome> {
    let mut command = match translate(seq, fx, cmd)? {
        Translation::Command(c) => c,
        Translation::Inexpressible(why) => return Ok(Outcome::Unsupported(why)),
    };
    match command.strategy(strategy).spawn() {
        Ok(mut child) => conclude(child.wait()?.into_raw(), &fx.report_path(), fx),
        Err(e) if e.kind() == io::ErrorKind::Unsupported => Ok(Outcome::Unsupported(e.to_string())),
        // Anything else (say, InvalidInput for a request the translation got wrong) shows up
        // as a divergence rather than stopping the run.
        Err(e) => Ok(match e.raw_os_error() {
            Some(errno) => Outcome::returned(errno),
            None => Outcome::Returned(format!("{:?}: {e}", e.kind())),
        }),
    }
}

/// The reference's outcome and every subject's, for one sequence.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub reference: Outcome,
    pub others: Vec<(String, Outcome)>,
}

impl Comparison {
    /// The subjects whose outcome differs from the reference's (`unsupported` never does).
    pub fn divergences(&self, seq: &Sequence) -> Vec<Divergence> {
        self.others
            .iter()
            .filter(|(_, got)| !got.is_unsupported() && *got != self.reference)
            .map(|(subject, got)| Divergence {
                subject: subject.clone(),
                reference: self.reference.clone(),
                got: got.clone(),
                details: match (&self.reference, got) {
                    (Outcome::Ok(a), Outcome::Ok(b)) => a.differences(b),
                    _ => Vec::new(),
                },
                known: explain(seq, &self.reference, got),
            })
            .collect()
    }
}

/// Which sequences of a seed's stream one runner takes, and when it stops.
#[derive(Debug, Clone, Copy)]
pub struct Slice {
    /// This runner's share: the sequences whose index is `job` modulo `jobs` (worker
    /// processes split one stream this way, so sequence `n` of a seed is the same sequence
    /// whatever the number of workers).
    pub job: usize,
    pub jobs: usize,
    /// Stop before index `end` of the whole stream (`None`: no such limit).
    pub end: Option<usize>,
    /// Stop starting sequences at this instant (`None`: no time limit).
    pub deadline: Option<Instant>,
}

impl Slice {
    /// Everything from 0 to `count`, in this process.
    pub fn all(count: usize) -> Slice {
        Slice {
            job: 0,
            jobs: 1,
            end: Some(count),
            deadline: None,
        }
    }
}

/// Runs `count` sequences drawn from `seed`. `progress` is called after each sequence.
pub fn fuzz(
    runner: &Runner,
    seed: u64,
    count: usize,
    mut progress: impl FnMut(usize),
) -> io::Result<Summary> {
    fuzz_slice(runner, seed, Slice::all(count), |s| progress(s.sequences))
}

/// Runs this slice of the sequences drawn from `seed`; `progress` sees the summary so far
/// after each sequence.
pub fn fuzz_slice(
    runner: &Runner,
    seed: u64,
    slice: Slice,
    mut progress: impl FnMut(&Summary),
) -> io::Result<Summary> {
    let started = Instant::now();
    let mut generator = Generator::new(seed);
    let mut summary = Summary {
        seed,
        jobs: slice.jobs.max(1),
        ..Summary::default()
    };
    let jobs = slice.jobs.max(1);
    for index in 0.. {
        if slice.end.is_some_and(|end| index >= end)
            || slice.deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
        let tree = generator
            .next_tree()
            .map_err(|r| io::Error::other(format!("generator rejected a sequence: {r}")))?;
        if index % jobs != slice.job {
            continue;
        }
        let seq = proptest::strategy::ValueTree::current(&tree);
        let comparison = runner.compare(&seq)?;
        summary.sequences += 1;
        for (subject, got) in &comparison.others {
            let counts = summary.per_subject.entry(subject.clone()).or_default();
            if got.is_unsupported() {
                summary.unsupported += 1;
                counts.1 += 1;
            } else {
                summary.compared += 1;
                counts.0 += 1;
            }
        }
        let found = comparison.divergences(&seq);
        let unexplained: Vec<_> = found
            .iter()
            .filter(|d| d.known.is_none())
            .cloned()
            .collect();
        for d in found.into_iter().filter(|d| d.known.is_some()) {
            record_explained(&mut summary, index, &seq, d);
        }
        if let Some(first) = unexplained.first() {
            summary
                .unexplained
                .push(shrink_finding(runner, index, tree, first)?);
        }
        summary.seconds = started.elapsed().as_secs_f64();
        progress(&summary);
    }
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// The simplest sequence below `tree` on which `first`'s subject still diverges without an
/// explanation, with that divergence.
fn shrink_finding(
    runner: &Runner,
    index: usize,
    tree: gen::Tree,
    first: &Divergence,
) -> io::Result<Finding> {
    let subject = first.subject.clone();
    let minimal = gen::shrink(tree, |candidate| {
        runner
            .divergences(candidate)
            .is_ok_and(|ds| ds.iter().any(|d| d.known.is_none() && d.subject == subject))
    });
    let divergence = runner
        .divergences(&minimal)?
        .into_iter()
        .find(|d| d.known.is_none() && d.subject == subject)
        .unwrap_or_else(|| first.clone());
    Ok(Finding {
        index,
        sequence: minimal,
        divergence,
    })
}
