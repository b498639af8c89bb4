//! FreeBSD: `close_range(2)` (FreeBSD 12.2 and 13.0 on), looked up at run time. Linked
//! directly, the symbol would keep a binary built here from loading on an older release (the
//! run-time linker refuses an undefined symbol); looked up, such a release closes fds one by
//! one. The parent looks it up ([`prepare`]); the child only reads the answer (an atomic
//! load: no lock). `ci/checks/50-cross-check.sh` fails if the object references it directly.

use std::ffi::{c_int, c_uint};
use std::os::fd::RawFd;
use std::sync::OnceLock;

type CloseRangeFn = unsafe extern "C" fn(c_uint, c_uint, c_int) -> c_int;

static CLOSE_RANGE: OnceLock<Option<CloseRangeFn>> = OnceLock::new();

/// Looks `close_range` up in the loaded libc, once (in the parent, before any child).
pub(super) fn prepare() {
    CLOSE_RANGE.get_or_init(|| {
        // SAFETY: dlsym reads a constant NUL-terminated name; RTLD_DEFAULT searches the
        // global scope. A static build has no working dlsym and answers null.
        let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"close_range".as_ptr()) };
        // SAFETY: FreeBSD's close_range has this C signature (unistd.h).
        (!p.is_null()).then(|| unsafe { std::mem::transmute::<*mut libc::c_void, CloseRangeFn>(p) })
    });
}

/// Closes `lo..=hi`; false if the call failed or this libc has none.
pub(super) unsafe fn close_gap(lo: RawFd, hi: RawFd) -> bool {
    let Some(Some(close_range)) = CLOSE_RANGE.get() else {
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
