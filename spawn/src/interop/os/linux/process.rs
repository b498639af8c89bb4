//! Linux-specific extensions: the child's pidfd. Mirrors `std::os::linux::process` (unstable
//! in std as `linux_pidfd`).

use std::io;

use super::super::sealed::Sealed;
use crate::{Child, Command};

pub use crate::front::pidfd::PidFd;

/// Linux-specific `Command` options. Mirrors `std::os::linux::process::CommandExt`.
pub trait CommandExt: Sealed {
    /// Whether the spawned `Child` holds a pidfd for the child ([`ChildExt::pidfd`]). It is
    /// taken in the same step that creates the child, so it refers to the child even if the
    /// child is reaped at once (`SIGCHLD` ignored): `CLONE_PIDFD` (clone3, and clone on Linux
    /// 5.2+), `pidfd_spawn` (posix_spawn, glibc 2.39+), the child's own `pidfd_open` sent
    /// over a socket (fork, Linux 5.3+). Where none of these is possible (an older kernel, or
    /// a forced `PosixSpawn` without `pidfd_spawn`) the spawn still succeeds and `pidfd()` is
    /// the error, as in std: a pidfd is never looked up by pid afterwards.
    fn create_pidfd(&mut self, val: bool) -> &mut Command;
}

impl CommandExt for Command {
    fn create_pidfd(&mut self, val: bool) -> &mut Command {
        self.req.create_pidfd = val;
        self
    }
}

/// Linux-specific `Child` access. Mirrors `std::os::linux::process::ChildExt`.
pub trait ChildExt: Sealed {
    /// The child's pidfd, if the command asked for one and it could be taken race-free;
    /// else why not (the spawn's own error, such as `Unsupported` or `EMFILE`).
    fn pidfd(&self) -> io::Result<&PidFd>;

    /// The child's pidfd, taking it out of the `Child`; the `Child` back if there is none.
    fn into_pidfd(self) -> Result<PidFd, Self>
    where
        Self: Sized;
}

impl ChildExt for Child {
    fn pidfd(&self) -> io::Result<&PidFd> {
        self.public_pidfd()
    }

    fn into_pidfd(self) -> Result<PidFd, Self> {
        self.take_public_pidfd()
    }
}
