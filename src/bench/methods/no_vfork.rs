//! Builds without the C vfork shim (cross builds for `cargo check`): `raw:vfork` is skipped.

use super::super::workload::Workload;
use super::{Candidate, Skipped};

pub fn candidate(_: &Workload) -> Candidate {
    Err(Skipped {
        name: "raw:vfork",
        reason: "the C vfork shim was not built for this target".to_string(),
    })
}
