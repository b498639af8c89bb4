//! FreeBSD: `close_range(2)` (FreeBSD 12.2 and 13.0 on).

use std::os::fd::RawFd;

/// Closes `lo..=hi`; false if the call failed.
pub(super) unsafe fn close_gap(lo: RawFd, hi: RawFd) -> bool {
    let (Ok(lo), Ok(hi)) = (libc::c_uint::try_from(lo), libc::c_uint::try_from(hi)) else {
        return false;
    };
    libc::close_range(lo, hi, 0) == 0
}

/// Not needed: `close_range` is always there.
pub(super) unsafe fn close_listed(_keep: &[RawFd]) -> bool {
    false
}
