//! Typed errors for requests the spawn code refuses, wrapped in `io::Error` so callers keep
//! the `std::process` signatures.

use std::{fmt, io};

/// Input that is rejected before anything is spawned (`ErrorKind::InvalidInput`).
#[derive(Debug, PartialEq, Eq)]
pub enum InputError {
    /// A NUL byte cannot be passed to `execve`.
    Nul {
        /// The string that had it (`argument 2`, `program`, ...).
        what: String,
    },
    /// A signal number this platform does not know, or one whose disposition or mask cannot be
    /// changed (`SIGKILL`, `SIGSTOP`).
    Signal {
        /// The signal number given.
        signal: i32,
        /// What it was given for (`reset to SIG_DFL`, ...).
        use_: &'static str,
    },
    /// A negative child fd number in `Command::fd`.
    NegativeFd {
        /// The fd number given.
        fd: i32,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Nul { what } => write!(f, "nul byte found in {what}"),
            InputError::Signal { signal, use_ } => write!(f, "signal {signal} cannot be {use_}"),
            InputError::NegativeFd { fd } => write!(f, "child fd {fd} is negative"),
        }
    }
}

impl std::error::Error for InputError {}

impl From<InputError> for io::Error {
    fn from(e: InputError) -> Self {
        io::Error::new(io::ErrorKind::InvalidInput, e)
    }
}

/// A request the forced strategy cannot express on this platform (`ErrorKind::Unsupported`).
#[derive(Debug, PartialEq, Eq)]
pub struct UnsupportedError {
    /// The strategy's name, as `Strategy::name` gives it.
    pub strategy: &'static str,
    /// What it would have had to do.
    pub what: &'static str,
}

impl fmt::Display for UnsupportedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "strategy {} cannot {} here", self.strategy, self.what)
    }
}

impl std::error::Error for UnsupportedError {}

impl From<UnsupportedError> for io::Error {
    fn from(e: UnsupportedError) -> Self {
        io::Error::new(io::ErrorKind::Unsupported, e)
    }
}

/// The calling thread's errno as an `io::Error` (no allocation, so the child may use it too).
pub(super) fn last() -> io::Error {
    io::Error::last_os_error()
}

/// The calling thread's errno as a number; `EIO` if, against every rule, it is 0.
pub(super) fn errno() -> libc::c_int {
    match io::Error::last_os_error().raw_os_error() {
        Some(0) | None => libc::EIO,
        Some(e) => e,
    }
}

#[cfg(any(target_os = "android", target_os = "cygwin"))]
use libc::__errno as errno_location;
#[cfg(target_os = "linux")]
use libc::__errno_location as errno_location;
#[cfg(any(target_os = "freebsd", target_vendor = "apple"))]
use libc::__error as errno_location;

/// Keeps the calling thread's `errno` as it was when made, and puts it back on drop: a spawn
/// leaves `errno` alone, although the libc calls it makes (and a `CLONE_VM` child, which
/// shares this thread's TLS) set it on the way.
pub(super) struct KeepErrno(libc::c_int);

impl KeepErrno {
    pub(super) fn new() -> KeepErrno {
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
pub(super) fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc == -1 {
        Err(last())
    } else {
        Ok(rc)
    }
}

pub(super) use crate::sys::check_rc;
