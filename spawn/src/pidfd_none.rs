//! Platforms without pidfds.

use std::io;
use std::os::fd::OwnedFd;
use std::sync::{Arc, OnceLock};

use super::status::ExitStatus;

/// Where a child's status goes once reaped (only its `Child` reaps here).
pub(super) type Reaped = Arc<OnceLock<ExitStatus>>;

/// Always: pidfds are Linux-only.
pub(super) fn unsupported() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "pidfds are Linux-only")
}

/// Always `Unsupported`: pidfds are Linux-only.
pub(super) fn open(_pid: libc::pid_t) -> io::Result<OwnedFd> {
    Err(unsupported())
}

/// Never made here: pidfds are Linux-only.
#[derive(Debug)]
#[allow(dead_code)]
pub struct PidFd(OwnedFd);

impl PidFd {
    /// Never called here (no spawn gives a pidfd).
    pub(super) fn for_child(fd: OwnedFd, _: Reaped) -> PidFd {
        PidFd(fd)
    }

    /// Never called here (no spawn gives a pidfd).
    pub(super) fn exit_status(&self) -> Option<ExitStatus> {
        None
    }

    /// Never called here (no spawn gives a pidfd).
    pub(super) fn unreaped(&self) -> io::Result<bool> {
        Err(unsupported())
    }

    /// Never called here (no spawn gives a pidfd).
    pub(super) fn kill_group(&self) -> Option<io::Result<()>> {
        None
    }

    /// Never called here (no spawn gives a pidfd).
    pub(super) fn wait(&self) -> io::Result<ExitStatus> {
        Err(unsupported())
    }

    /// Never called here (no spawn gives a pidfd).
    pub(super) fn try_wait(&self) -> io::Result<Option<ExitStatus>> {
        Err(unsupported())
    }

    /// Never called here (no spawn gives a pidfd).
    pub(super) fn kill(&self) -> io::Result<()> {
        Err(unsupported())
    }
}

impl std::os::fd::AsFd for PidFd {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.0.as_fd()
    }
}

/// What a pidfd says about its process (never asked here: no `pidfd_spawn`).
#[allow(dead_code)]
pub(super) enum Identity {
    /// Its pid.
    Pid(libc::pid_t),
    /// Reaped already.
    Reaped(Option<ExitStatus>),
}

/// Never called here (no `pidfd_spawn`).
pub(super) fn identify(_: &OwnedFd) -> io::Result<Identity> {
    Err(unsupported())
}

/// Never called here (no `pidfd_spawn`).
pub(super) fn abandon(_: OwnedFd, e: io::Error) -> io::Error {
    e
}
