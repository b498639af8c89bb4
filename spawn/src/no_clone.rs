//! Platforms without Linux's `clone`: the clone strategies are not available, and forcing one
//! is an `Unsupported` error.

use std::io;

use super::dispatch::Spawned;
use super::plan::Prepared;

const LINUX_ONLY: &str = "run: clone is Linux-only";

/// No `clone(CLONE_VM|CLONE_VFORK)` here.
pub(super) fn clone_vfork_supported() -> bool {
    false
}

/// No clone3 here.
pub(super) fn clone3_supported() -> bool {
    false
}

/// No clone3 here.
pub(super) fn clone3_maybe_supported() -> bool {
    false
}

/// Always: clone is Linux-only.
pub(super) fn clone3_forbidden() -> Option<&'static str> {
    Some(LINUX_ONLY)
}

/// Always: clone is Linux-only.
pub(super) fn clone_vfork_forbidden() -> Option<&'static str> {
    Some(LINUX_ONLY)
}

/// Always `Ok(None)`: this platform has no clone3.
pub(super) fn clone3(_: &mut Prepared) -> io::Result<Option<Spawned>> {
    Ok(None)
}

/// Always `Ok(None)`: this platform has no clone.
pub(super) fn clone_vfork(_: &mut Prepared) -> io::Result<Option<Spawned>> {
    Ok(None)
}

/// No pidfds here: `fork` never asks for one (a pidfd request is `Unsupported` before).
pub(super) mod pidfd_channel {
    use std::io;
    use std::os::fd::{OwnedFd, RawFd};

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
    ///
    /// # Safety
    /// None needed.
    pub(crate) unsafe fn send_own(_: RawFd) {}

    /// Never called: see the module note.
    pub(crate) fn receive(_: &OwnedFd) -> io::Result<Report> {
        Ok(Report::Nothing)
    }
}
