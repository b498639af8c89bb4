//! The libc conventions every layer's calls follow: the calling thread's `errno`, the two
//! ways a call reports failure (-1 and errno, or the error number returned), and keeping
//! `errno` as it was across a spawn.

use std::io;

/// The calling thread's errno as an `io::Error` (no allocation, so the child may use it too).
pub(crate) fn last() -> io::Error {
    io::Error::last_os_error()
}

/// The calling thread's errno as a number; `EIO` if, against every rule, it is 0.
pub(crate) fn errno() -> libc::c_int {
    match io::Error::last_os_error().raw_os_error() {
        Some(0) | None => libc::EIO,
        Some(e) => e,
    }
}

// Where each libc keeps the calling thread's errno.
#[cfg(any(target_os = "linux", target_os = "dragonfly"))]
use libc::__errno_location as errno_location;
#[cfg(any(
    target_os = "android",
    target_os = "cygwin",
    target_os = "netbsd",
    target_os = "openbsd"
))]
use libc::__errno as errno_location;
#[cfg(any(target_os = "freebsd", target_vendor = "apple"))]
use libc::__error as errno_location;
#[cfg(any(target_os = "illumos", target_os = "solaris"))]
use libc::___errno as errno_location;

/// Keeps the calling thread's `errno` as it was when made, and puts it back on drop: a spawn
/// leaves `errno` alone, although the libc calls it makes (and a `CLONE_VM` child, which
/// shares this thread's TLS) set it on the way.
pub(crate) struct KeepErrno(libc::c_int);

impl KeepErrno {
    pub(crate) fn new() -> KeepErrno {
        // SAFETY: the calling thread's errno, always valid to read.
        KeepErrno(unsafe { *errno_location() })
    }
}

impl Drop for KeepErrno {
    fn drop(&mut self) {
        // SAFETY: the calling thread's errno, always valid to write.
        unsafe { *errno_location() = self.0 };
    }
}

/// `Ok` for a libc call that returns -1 and sets errno on failure.
pub(crate) fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc == -1 {
        Err(last())
    } else {
        Ok(rc)
    }
}

pub(crate) use crate::sys::check_rc;
