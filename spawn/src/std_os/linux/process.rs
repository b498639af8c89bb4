//! Linux-specific extensions: the child's pidfd. Mirrors `std::os::linux::process` (unstable
//! in std as `linux_pidfd`).

use std::io;

use super::super::sealed::Sealed;
use crate::{Child, Command};

pub use crate::pidfd::PidFd;

/// Linux-specific `Command` options. Mirrors `std::os::linux::process::CommandExt`.
pub trait CommandExt: Sealed {
    /// Whether the spawned `Child` holds a pidfd for the child ([`ChildExt::pidfd`]). It is
    /// opened with `pidfd_open(2)` (Linux 5.3+) right after the spawn, under every strategy;
    /// on an older kernel the spawn still succeeds and `pidfd()` is an error, as in std.
    fn create_pidfd(&mut self, val: bool) -> &mut Command;
}

impl CommandExt for Command {
    fn create_pidfd(&mut self, val: bool) -> &mut Command {
        self.create_pidfd = val;
        self
    }
}

/// Linux-specific `Child` access. Mirrors `std::os::linux::process::ChildExt`.
pub trait ChildExt: Sealed {
    /// The child's pidfd, if the command asked for one and the kernel gave it.
    fn pidfd(&self) -> io::Result<&PidFd>;

    /// The child's pidfd, taking it out of the `Child`; the `Child` back if there is none.
    fn into_pidfd(self) -> Result<PidFd, Self>
    where
        Self: Sized;
}

impl ChildExt for Child {
    fn pidfd(&self) -> io::Result<&PidFd> {
        self.pidfd
            .as_ref()
            .ok_or_else(|| io::Error::other("No pidfd was created."))
    }

    fn into_pidfd(mut self) -> Result<PidFd, Self> {
        self.pidfd.take().ok_or(self)
    }
}
