//! FreeBSD.

use std::ffi::{c_int, c_uint};
use std::sync::OnceLock;

/// `_SIG_MAXSIG` is 128.
pub(crate) const NSIG: libc::c_int = 129;

/// Not observed here: the path is made absolute in the parent instead.
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;

/// The search path when the child's environment has no `PATH`: `execvp`'s `_PATH_DEFPATH`
/// from `<paths.h>` (`lib/libc/gen/exec.c`), which `std::process::Command` leaves the search to.
pub(crate) const DEFAULT_PATH: &[u8] = b"/usr/bin:/bin";

extern "C" {
    /// libc's "a second thread was ever created" flag (`libc_private.h`; exported since
    /// FreeBSD 5, `FBSD_1.0`).
    static __isthreaded: libc::c_int;
}

/// Whether this process never had a second thread.
pub(crate) fn single_threaded() -> bool {
    // SAFETY: a plain int libc sets once, when the first thread is created.
    unsafe { std::ptr::read_volatile(std::ptr::addr_of!(__isthreaded)) == 0 }
}

/// libc's `close_range(2)` (FreeBSD 12.2 and 13.0 on), looked up at run time so a binary
/// built here loads on older releases (`ci/checks/50-cross-check.sh` fails on a direct
/// reference); the child reads the answer (`child_side/close_fds/freebsd.rs`).
pub(crate) type CloseRangeFn = unsafe extern "C" fn(c_uint, c_uint, c_int) -> c_int;

static CLOSE_RANGE: OnceLock<Option<CloseRangeFn>> = OnceLock::new();

/// Looks `close_range` up in the loaded libc, once (in the parent, before any child).
pub(crate) fn look_up_close_range() {
    CLOSE_RANGE.get_or_init(|| {
        // SAFETY: dlsym reads a constant NUL-terminated name; RTLD_DEFAULT searches the
        // global scope. A static build has no working dlsym and answers null.
        let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"close_range".as_ptr()) };
        // SAFETY: FreeBSD's close_range has this C signature (unistd.h).
        (!p.is_null()).then(|| unsafe { std::mem::transmute::<*mut libc::c_void, CloseRangeFn>(p) })
    });
}

/// `close_range`, if [`look_up_close_range`] found it (an atomic load: no lock).
pub(crate) fn close_range() -> Option<CloseRangeFn> {
    CLOSE_RANGE.get().copied().flatten()
}

/// This process's parent-death signal (`PROC_PDEATHSIG_STATUS`), for a failed `exec` to
/// put back; `None` if it cannot be read.
pub(crate) fn parent_death_signal() -> Option<libc::c_int> {
    let mut sig: libc::c_int = 0;
    // SAFETY: PROC_PDEATHSIG_STATUS writes one int.
    let rc = unsafe {
        libc::procctl(
            libc::P_PID,
            0,
            libc::PROC_PDEATHSIG_STATUS,
            std::ptr::addr_of_mut!(sig).cast(),
        )
    };
    (rc == 0).then_some(sig)
}
