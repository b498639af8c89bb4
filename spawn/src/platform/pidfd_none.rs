//! Platforms without pidfds.

use std::io;
use std::os::fd::OwnedFd;

/// Always: pidfds are Linux-only.
pub(crate) fn unsupported() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "pidfds are Linux-only")
}

/// Always `Unsupported`: pidfds are Linux-only.
pub(crate) fn open(_pid: libc::pid_t) -> io::Result<OwnedFd> {
    Err(unsupported())
}


/// What a pidfd says about its process (never asked here: no `pidfd_spawn`).
#[allow(dead_code)]
pub(crate) enum Identity {
    /// Its pid.
    Pid(libc::pid_t),
    /// Reaped already (its raw wait status, if known).
    Reaped(Option<libc::c_int>),
}

/// Never called here (no `pidfd_spawn`).
pub(crate) fn identify(_: &OwnedFd) -> io::Result<Identity> {
    Err(unsupported())
}

/// Never called here (no `pidfd_spawn`).
pub(crate) fn abandon(_: OwnedFd, e: io::Error) -> io::Error {
    e
}
