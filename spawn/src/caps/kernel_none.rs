//! Platforms without the Linux kernel features the shared implementation probes for.

use super::Capability;

pub(super) fn detect() -> Vec<(String, Capability)> {
    Vec::new()
}
