//! No pidfds here: `fork` never asks for one (a pidfd request is `Unsupported` before).

use std::io;
use std::os::fd::OwnedFd;

/// What the parent read first (never made here).
#[allow(dead_code)]
pub(crate) enum Report {
    Pidfd(io::Result<OwnedFd>),
    Errno(libc::c_int),
    Nothing,
}

/// Never called: see the module note.
pub(crate) fn channel() -> io::Result<(OwnedFd, OwnedFd)> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "pidfds are Linux-only",
    ))
}

/// Never called: see the module note.
pub(crate) fn receive(_: &OwnedFd) -> io::Result<Report> {
    Ok(Report::Nothing)
}
