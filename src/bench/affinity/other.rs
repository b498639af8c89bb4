//! Platforms without a pinning call used here (macOS has none; FreeBSD's `cpuset` is left for
//! when its column runs): measurements there are unpinned.

use std::io;

/// Never made on these platforms.
pub struct Pin {
    cpu: usize,
}

impl Pin {
    /// Always `Ok(None)`: not pinned.
    pub fn to_one_cpu() -> io::Result<Option<Pin>> {
        Ok(None)
    }

    pub fn cpu(&self) -> usize {
        self.cpu
    }
}
