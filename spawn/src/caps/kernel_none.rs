//! Platforms without the Linux kernel features the shared implementation probes for, and
//! Android, where probing them could kill the process (see `mod.rs`).

use super::Capability;

pub(super) fn detect() -> Vec<(String, Capability)> {
    Vec::new()
}
