//! FreeBSD.

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
