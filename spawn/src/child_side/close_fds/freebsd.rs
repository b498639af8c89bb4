//! FreeBSD: `close_range(2)` (FreeBSD 12.2 and 13.0 on), looked up at run time. Linked
//! directly, the symbol would keep a binary built here from loading on an older release (the
//! run-time linker refuses an undefined symbol); looked up, such a release closes fds one by
//! one. The parent looks it up (`platform/freebsd.rs`); the child only reads the answer (an
//! atomic load: no lock). `ci/checks/50-cross-check.sh` fails if the object references it directly.

use std::ffi::c_uint;
use std::os::fd::RawFd;

/// Closes `lo..=hi`; false if the call failed or this libc has none.
pub(super) unsafe fn close_gap(lo: RawFd, hi: RawFd) -> bool {
    let Some(close_range) = crate::platform::close_range() else {
        return false;
    };
    let (Ok(lo), Ok(hi)) = (c_uint::try_from(lo), c_uint::try_from(hi)) else {
        return false;
    };
    close_range(lo, hi, 0) == 0
}

/// No fd listing a child may read without allocating here.
pub(super) unsafe fn close_listed(_keep: &[RawFd]) -> bool {
    false
}
