//! Platforms without Linux's clone: no extra raw method; vfork is preferred as the floor.

use super::super::workload::Workload;
use super::Candidate;

pub const FLOOR: &str = "raw:vfork";

pub fn methods(_: &Workload) -> Vec<Candidate> {
    vec![]
}
