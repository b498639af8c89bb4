//! Platforms without the Linux kernel features the shared implementation probes for.

use crate::report::Capability;

pub(super) fn detect() -> Vec<(String, Capability)> {
    Vec::new()
}
