//! The `fuzz` section of a report: what a differential-fuzzing campaign (`spawnmatrix fuzz
//! --record REPORT`) found on that platform.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One campaign: how much ran, and every divergence from the fork+exec reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fuzz {
    /// The generator's seed: `spawnmatrix fuzz --seed` replays the same sequences.
    pub seed: u64,
    /// Sequences run through the reference and every subject.
    pub sequences: u64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Worker processes that shared the run.
    pub jobs: u32,
    /// One-minute load average when the campaign started (its throughput depends on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_average: Option<f64>,
    /// Per subject (`libc`, `shared:<strategy>`): outcomes compared with the reference, and
    /// runs the subject could not express.
    pub subjects: BTreeMap<String, FuzzSubject>,
    /// Divergences a documented libc difference explains, by rule id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub explained: BTreeMap<String, FuzzExplained>,
    /// Divergences no rule explains, each shrunk to a minimal sequence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unexplained: Vec<FuzzFinding>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuzzSubject {
    pub compared: u64,
    pub unsupported: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuzzExplained {
    /// The conformance case that records the difference per platform.
    pub case: String,
    pub count: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuzzFinding {
    /// The sequence's index in the seed's stream (before shrinking).
    pub index: u64,
    pub subject: String,
    /// Outcomes in the suite's grammar.
    pub reference: String,
    pub got: String,
    /// The shrunk sequence as JSON: `spawnmatrix fuzz --replay` runs it again.
    pub sequence: String,
}
