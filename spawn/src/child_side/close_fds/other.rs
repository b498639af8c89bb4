//! Platforms without a range call this crate uses: every fd is closed by number.

use std::os::fd::RawFd;

/// No range call here.
pub(super) unsafe fn close_gap(_lo: RawFd, _hi: RawFd) -> bool {
    false
}

/// No fd listing a child may read without allocating here.
pub(super) unsafe fn close_listed(_keep: &[RawFd]) -> bool {
    false
}
