//! The result of a fuzz run and how it prints.

use std::fmt;

use serde::Serialize;

use super::explain::Known;
use super::model::Sequence;
use super::run::Divergence;

/// A divergence found in a run, with the sequence it came from (shrunk when unexplained).
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub index: usize,
    pub sequence: Sequence,
    pub divergence: Divergence,
}

/// What a fuzz run did.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub seed: u64,
    pub sequences: usize,
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

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "fuzz: seed {} ({} sequences): {} subject runs compared with the reference, {} unsupported",
            self.seed, self.sequences, self.compared, self.unsupported
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
