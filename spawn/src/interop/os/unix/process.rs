//! Unix-specific extensions to `Command` and `ExitStatus`. Mirrors
//! `std::os::unix::process`.

use std::ffi::OsStr;
use std::io;

use super::super::sealed::Sealed;
use crate::{Command, ExitStatus};

/// Unix-specific `Command` options. Mirrors `std::os::unix::process::CommandExt`.
pub trait CommandExt: Sealed {
    /// The child calls `setuid(id)` before `execve`; an error (`EPERM` without the
    /// privilege) is the spawn's error. Without [`groups`](Self::groups), the supplementary
    /// groups are dropped first (`setgroups(0)`; `EPERM` ignored), as std does. A command
    /// with ids (`uid`, `gid` or `groups`) always runs in a forked child, as in std: `Auto`
    /// forks, any other forced strategy is `Unsupported` (a child sharing the parent's
    /// memory that changed ids would make the parent non-dumpable for good). On Linux the
    /// forked child makes itself non-dumpable right after the id calls, so with
    /// `fs.suid_dumpable=1` the new user cannot attach to it (and read its copy of the
    /// parent's memory) before `execve`, except in the instant between `setuid` and that
    /// `prctl`.
    fn uid(&mut self, id: u32) -> &mut Command;

    /// The child calls `setgid(id)` before `execve` (and before `setuid`).
    fn gid(&mut self, id: u32) -> &mut Command;

    /// The child calls `setgroups(groups)` before `execve` (before `setgid` and `setuid`).
    fn groups(&mut self, groups: &[u32]) -> &mut Command;

    /// Runs `f` in the child after every other preparation, just before `execve`; an
    /// `Err` is the spawn's error (its errno, or `EINVAL` if it has none). `f` runs in a
    /// forked child, so a command with a closure uses the `fork` strategy (`Auto` picks it;
    /// forcing another is `Unsupported`).
    ///
    /// # Safety
    /// As with std: `f` runs in a child forked from a possibly multi-threaded process, so it
    /// may only do what is async-signal-safe (no allocation, no locks).
    unsafe fn pre_exec<F>(&mut self, f: F) -> &mut Command
    where
        F: FnMut() -> io::Result<()> + Send + Sync + 'static;

    /// Replaces this process with the command (stdio inherited unless set); returns only on
    /// failure, with the error. The strategy does not apply: nothing is spawned.
    ///
    /// Fds: only the stdio given (0, 1, 2) is replaced, as std does; if the exec fails, each
    /// is put back as it was (file and close-on-exec flag) and every temporary copy is
    /// closed, so the fd table is the same as before the call. A mapping onto a higher fd
    /// ([`Command::fd`] from 3 up) or [`Command::close_fds`] is `Unsupported` here: it would
    /// replace or close fds that other code in this process may own. Ids are changed with
    /// libc's process-wide calls (every thread), as std does. A failed exec puts back the
    /// working directory, umask, resource limits, process group, foreground group,
    /// parent-death signal, the dispositions it reset (`SIGPIPE` too) and the signal mask;
    /// it cannot undo the ids, a new session with its controlling terminal, a hard limit
    /// lowered without the privilege to raise it, or what `pre_exec` closures did.
    fn exec(&mut self) -> io::Error;

    /// The child's `argv[0]`; the program run is still the one given to `Command::new`.
    fn arg0<S: AsRef<OsStr>>(&mut self, arg: S) -> &mut Command;

    /// Puts the child in process group `pgroup` (0: a new group led by the child).
    ///
    /// ```
    /// use spawnmatrix_spawn::os::unix::process::CommandExt;
    /// use spawnmatrix_spawn::{Command, Stdio};
    ///
    /// let mut child = Command::new("cat").process_group(0).stdin(Stdio::piped()).spawn()?;
    /// let pid = child.id() as libc::pid_t;
    /// // SAFETY: getpgid only reads the process group of our own child.
    /// assert_eq!(unsafe { libc::getpgid(pid) }, pid, "the child leads a new group");
    /// drop(child.stdin.take());
    /// assert!(child.wait()?.success());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn process_group(&mut self, pgroup: i32) -> &mut Command;
}

impl CommandExt for Command {
    fn uid(&mut self, id: u32) -> &mut Command {
        self.req.ids.uid = Some(id);
        self
    }

    fn gid(&mut self, id: u32) -> &mut Command {
        self.req.ids.gid = Some(id);
        self
    }

    fn groups(&mut self, groups: &[u32]) -> &mut Command {
        self.req.ids.groups = Some(groups.into());
        self
    }

    unsafe fn pre_exec<F>(&mut self, f: F) -> &mut Command
    where
        F: FnMut() -> io::Result<()> + Send + Sync + 'static,
    {
        self.req.pre_exec.push(Box::new(f));
        self
    }

    fn exec(&mut self) -> io::Error {
        crate::front::exec::exec(self)
    }

    fn arg0<S: AsRef<OsStr>>(&mut self, arg: S) -> &mut Command {
        if let Some(first) = self.req.argv.first_mut() {
            *first = arg.as_ref().to_os_string();
        }
        self
    }

    fn process_group(&mut self, pgroup: i32) -> &mut Command {
        self.req.pgid = Some(pgroup);
        self
    }
}

/// Unix-specific `ExitStatus` views of the raw wait status. Mirrors
/// `std::os::unix::process::ExitStatusExt`.
pub trait ExitStatusExt: Sealed {
    /// A status from a raw `waitpid` status word.
    fn from_raw(raw: i32) -> Self;
    /// The signal that killed the process, if one did.
    fn signal(&self) -> Option<i32>;
    /// Whether the process was killed and dumped core.
    fn core_dumped(&self) -> bool;
    /// The signal that stopped the process, if this status says it stopped (`WUNTRACED`).
    fn stopped_signal(&self) -> Option<i32>;
    /// Whether this status says a stopped process continued (`WCONTINUED`).
    fn continued(&self) -> bool;
    /// The raw `waitpid` status word.
    fn into_raw(self) -> i32;
}

impl ExitStatusExt for ExitStatus {
    fn from_raw(raw: i32) -> Self {
        ExitStatus(raw)
    }

    fn signal(&self) -> Option<i32> {
        libc::WIFSIGNALED(self.0).then(|| libc::WTERMSIG(self.0))
    }

    fn core_dumped(&self) -> bool {
        libc::WIFSIGNALED(self.0) && libc::WCOREDUMP(self.0)
    }

    fn stopped_signal(&self) -> Option<i32> {
        libc::WIFSTOPPED(self.0).then(|| libc::WSTOPSIG(self.0))
    }

    fn continued(&self) -> bool {
        libc::WIFCONTINUED(self.0)
    }

    fn into_raw(self) -> i32 {
        self.0
    }
}
