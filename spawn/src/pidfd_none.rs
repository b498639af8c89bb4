//! Platforms without pidfds.

use std::io;
use std::os::fd::OwnedFd;

/// Always `Unsupported`: pidfds are Linux-only.
pub(super) fn open(_pid: libc::pid_t) -> io::Result<OwnedFd> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "pidfds are Linux-only",
    ))
}

/// Never made here: pidfds are Linux-only.
#[derive(Debug)]
#[allow(dead_code)]
pub struct PidFd(pub(super) OwnedFd);
