//! The result of a fuzz run and how it prints.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::explain::Known;
use super::model::Sequence;
use super::outcome::Outcome;
use crate::report;

/// One subject's outcome differing from the reference's.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Divergence {
    pub subject: String,
    pub reference: Outcome,
    pub got: Outcome,
    /// For two `ok` outcomes: the fields that differ.
    pub details: Vec<String>,
    pub known: Option<Known>,
}

/// A divergence found in a run, with the sequence it came from (shrunk when unexplained).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finding {
    pub index: usize,
    pub sequence: Sequence,
    pub divergence: Divergence,
}

/// What a fuzz run did.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Summary {
    pub seed: u64,
    /// Sequences run (through the reference and every subject).
    pub sequences: usize,
    /// Processes that shared the run (see [`Slice`](super::run::Slice)).
    pub jobs: usize,
    /// Wall time of the run.
    pub seconds: f64,
    /// Outcomes compared (subject runs that were not `unsupported`).
    pub compared: usize,
    pub unsupported: usize,
    /// Per subject: runs compared, runs `unsupported` (the sequence was not expressible there).
    pub per_subject: std::collections::BTreeMap<String, (usize, usize)>,
    /// Divergences explained by a documented difference, by rule id, with one example each.
    pub explained: Vec<(Known, usize, Finding)>,
    /// Divergences no rule explains: bugs in a libc, the shared implementation or the
    /// reference. Shrunk to a minimal sequence.
    pub unexplained: Vec<Finding>,
}

pub(super) fn record_explained(summary: &mut Summary, index: usize, seq: &Sequence, d: Divergence) {
    let Some(known) = d.known else { return };
    match summary
        .explained
        .iter_mut()
        .find(|(k, _, _)| k.id == known.id)
    {
        Some((_, n, _)) => *n += 1,
        None => summary.explained.push((
            known,
            1,
            Finding {
                index,
                sequence: seq.clone(),
                divergence: d,
            },
        )),
    }
}

impl Summary {
    /// Sequences per second of wall time (0 when no time passed).
    pub fn per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.sequences as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// Adds a worker's summary of another slice of the same seed's stream: counts add up,
    /// each rule keeps the example with the lowest index, findings stay in index order, and
    /// the wall time is the longest worker's (they ran at once).
    pub fn merge(&mut self, other: Summary) {
        self.sequences += other.sequences;
        self.compared += other.compared;
        self.unsupported += other.unsupported;
        self.seconds = self.seconds.max(other.seconds);
        for (subject, (c, u)) in other.per_subject {
            let mine = self.per_subject.entry(subject).or_default();
            mine.0 += c;
            mine.1 += u;
        }
        for (known, n, example) in other.explained {
            match self.explained.iter_mut().find(|(k, _, _)| k.id == known.id) {
                Some((_, count, mine)) => {
                    *count += n;
                    if example.index < mine.index {
                        *mine = example;
                    }
                }
                None => self.explained.push((known, n, example)),
            }
        }
        self.explained.sort_by_key(|(k, _, _)| k.id);
        self.unexplained.extend(other.unexplained);
        self.unexplained.sort_by_key(|f| f.index);
    }

    /// The report's `fuzz` section for this run.
    pub fn record(&self, load_average: Option<f64>) -> report::Fuzz {
        let n = |x: usize| x as u64;
        report::Fuzz {
            seed: self.seed,
            sequences: n(self.sequences),
            seconds: (self.seconds * 10.0).round() / 10.0,
            jobs: u32::try_from(self.jobs).unwrap_or(u32::MAX),
            load_average,
            subjects: self
                .per_subject
                .iter()
                .map(|(s, (c, u))| {
                    let counts = report::FuzzSubject {
                        compared: n(*c),
                        unsupported: n(*u),
                    };
                    (s.clone(), counts)
                })
                .collect(),
            explained: self
                .explained
                .iter()
                .map(|(k, count, _)| {
                    let e = report::FuzzExplained {
                        case: k.case.to_string(),
                        count: n(*count),
                    };
                    (k.id.to_string(), e)
                })
                .collect(),
            unexplained: self
                .unexplained
                .iter()
                .map(|f| report::FuzzFinding {
                    index: n(f.index),
                    subject: f.divergence.subject.clone(),
                    reference: f.divergence.reference.to_string(),
                    got: f.divergence.got.to_string(),
                    sequence: f.sequence.to_string(),
                })
                .collect(),
        }
    }

    /// Divergences explained by a rule, all rules together.
    pub fn explained_total(&self) -> usize {
        self.explained.iter().map(|(_, n, _)| n).sum()
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "fuzz: seed {} ({} sequences in {:.1} s, {:.1}/s, {} job(s)): {} subject runs compared with the reference, {} unsupported",
            self.seed,
            self.sequences,
            self.seconds,
            self.per_second(),
            self.jobs,
            self.compared,
            self.unsupported
        )?;
        for (subject, (compared, unsupported)) in &self.per_subject {
            writeln!(
                f,
                "  {subject}: {compared} compared, {unsupported} unsupported"
            )?;
        }
        for (known, n, example) in &self.explained {
            writeln!(
                f,
                "  explained {} x{n} (case {}): {}",
                known.id, known.case, known.why
            )?;
            writeln!(f, "    e.g. {example}")?;
        }
        for finding in &self.unexplained {
            writeln!(f, "  UNEXPLAINED {finding}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.divergence;
        write!(
            f,
            "sequence #{} {}: {} gave {} where the reference gave {}",
            self.index, self.sequence, d.subject, d.got, d.reference
        )?;
        for detail in &d.details {
            write!(f, "\n      {detail}")?;
        }
        Ok(())
    }
}
