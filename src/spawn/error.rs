//! Typed errors for requests the spawn code refuses, wrapped in `io::Error` so callers keep
//! the `std::process` signatures.

use std::io;

/// Input that is rejected before anything is spawned (`ErrorKind::InvalidInput`).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InputError {
    /// A NUL byte cannot be passed to `execve`; `what` names the string that had it.
    #[error("nul byte found in {what}")]
    Nul { what: String },
    /// A signal number this platform does not know, or one whose disposition or mask cannot be
    /// changed (`SIGKILL`, `SIGSTOP`).
    #[error("signal {signal} cannot be {use_}")]
    Signal { signal: i32, use_: &'static str },
    /// A negative child fd number in `Command::fd`.
    #[error("child fd {fd} is negative")]
    NegativeFd { fd: i32 },
}

impl From<InputError> for io::Error {
    fn from(e: InputError) -> Self {
        io::Error::new(io::ErrorKind::InvalidInput, e)
    }
}

/// A request the forced strategy cannot express on this platform (`ErrorKind::Unsupported`).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("strategy {strategy} cannot {what} here")]
pub struct UnsupportedError {
    /// The strategy's name, as `Strategy::name` gives it.
    pub strategy: &'static str,
    /// What it would have had to do.
    pub what: &'static str,
}

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

/// `Ok` for a libc call that returns -1 and sets errno on failure.
pub(super) fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc == -1 {
        Err(last())
    } else {
        Ok(rc)
    }
}

pub(super) use crate::sys::check_rc;
