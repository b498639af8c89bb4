//! Platforms with neither pidfds nor kqueue: no pollable exit.

use std::io;
use std::os::fd::OwnedFd;

use crate::Child;

/// Always `Unsupported`.
pub(super) fn for_child(_: &mut Child) -> io::Result<OwnedFd> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "no pollable process exit here (neither pidfds nor kqueue)",
    ))
}
