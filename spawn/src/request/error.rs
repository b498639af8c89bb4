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
