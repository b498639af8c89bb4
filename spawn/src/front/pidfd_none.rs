//! Platforms without pidfds.

use std::io;
use std::os::fd::OwnedFd;
use std::sync::{Arc, OnceLock};

use super::status::ExitStatus;
pub(crate) use crate::platform::pidfd::{open, unsupported};

/// Where a child's status goes once reaped (only its `Child` reaps here).
pub(crate) type Reaped = Arc<OnceLock<ExitStatus>>;

/// Never made here: pidfds are Linux-only.
#[derive(Debug)]
#[allow(dead_code)]
pub struct PidFd(OwnedFd);

impl PidFd {
    /// Never called here (no spawn gives a pidfd).
    pub(crate) fn for_child(fd: OwnedFd, _: Reaped) -> PidFd {
        PidFd(fd)
    }

    /// Never called here (no spawn gives a pidfd).
    pub(crate) fn exit_status(&self) -> Option<ExitStatus> {
        None
    }

    /// Never called here (no spawn gives a pidfd).
    pub(crate) fn unreaped(&self) -> io::Result<bool> {
        Err(unsupported())
    }

    /// Never called here (no spawn gives a pidfd).
    pub(crate) fn kill_group(&self) -> Option<io::Result<()>> {
        None
    }

    /// Never called here (no spawn gives a pidfd).
    pub(crate) fn wait(&self) -> io::Result<ExitStatus> {
        Err(unsupported())
    }

    /// Never called here (no spawn gives a pidfd).
    pub(crate) fn try_wait(&self) -> io::Result<Option<ExitStatus>> {
        Err(unsupported())
    }

    /// Never called here (no spawn gives a pidfd).
    pub(crate) fn kill(&self) -> io::Result<()> {
        Err(unsupported())
    }
}

impl std::os::fd::AsFd for PidFd {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.0.as_fd()
    }
}
