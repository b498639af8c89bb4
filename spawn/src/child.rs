//! A running or finished child process.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};

use super::error::check;
use super::output::read2;
use super::pidfd::{self, PidFd};
use super::plan::ParentEnds;
use super::status::{ExitStatus, Output};
use super::strategy::Strategy;

/// A spawned child. Mirrors `std::process::Child`: dropping it neither kills nor waits.
///
/// ```
/// use std::io::Write;
/// use spawnmatrix_spawn::os::unix::process::ExitStatusExt;
/// use spawnmatrix_spawn::{Command, Stdio};
///
/// let mut child = Command::new("tr")
///     .arg("a-z")
///     .arg("A-Z")
///     .stdin(Stdio::piped())
///     .stdout(Stdio::piped())
///     .spawn()?;
/// child.stdin.take().unwrap().write_all(b"shout")?; // dropped: tr sees end of input
/// let output = child.wait_with_output()?;
/// assert_eq!(output.stdout, b"SHOUT");
///
/// let mut sleeper = Command::new("sleep").arg("60").spawn()?;
/// assert!(sleeper.try_wait()?.is_none());
/// sleeper.kill()?;
/// assert_eq!(sleeper.wait()?.signal(), Some(libc::SIGKILL));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Child {
    pid: libc::pid_t,
    strategy: Strategy,
    status: Option<ExitStatus>,
    /// The pidfd `create_pidfd` asked for (`os::linux::process::ChildExt`).
    pub(super) pidfd: Option<PidFd>,
    /// A pidfd opened for [`Child::exit_fd`] when `create_pidfd` was not asked for.
    exit_fd: Option<OwnedFd>,
    /// The parent's end of the child's stdin, if piped.
    pub stdin: Option<ChildStdin>,
    /// The parent's end of the child's stdout, if piped.
    pub stdout: Option<ChildStdout>,
    /// The parent's end of the child's stderr, if piped.
    pub stderr: Option<ChildStderr>,
}

impl Child {
    pub(super) fn new(
        pid: libc::pid_t,
        strategy: Strategy,
        ends: ParentEnds,
        pidfd: Option<OwnedFd>,
    ) -> Child {
        Child {
            pid,
            strategy,
            status: None,
            pidfd: pidfd.map(PidFd),
            exit_fd: None,
            stdin: ends.stdin.map(ChildStdin::from),
            stdout: ends.stdout.map(ChildStdout::from),
            stderr: ends.stderr.map(ChildStderr::from),
        }
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.pid as u32
    }

    /// The strategy that created the child (never `Auto`).
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Sends `SIGKILL`, unless the child has already been waited for.
    pub fn kill(&mut self) -> io::Result<()> {
        if self.status.is_some() {
            return Ok(());
        }
        // SAFETY: kill with a pid this Child has not reaped, so it is still ours.
        check(unsafe { libc::kill(self.pid, libc::SIGKILL) }).map(drop)
    }

    /// Closes stdin (so the child sees EOF) and waits for the child to end.
    pub fn wait(&mut self) -> io::Result<ExitStatus> {
        drop(self.stdin.take());
        if let Some(s) = self.status {
            return Ok(s);
        }
        let s = wait_pid(self.pid, 0)?
            .ok_or_else(|| io::Error::other("waitpid without WNOHANG returned 0"))?;
        self.status = Some(s);
        Ok(s)
    }

    /// The status if the child has ended, without blocking.
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        if let Some(s) = self.status {
            return Ok(Some(s));
        }
        self.status = wait_pid(self.pid, libc::WNOHANG)?;
        Ok(self.status)
    }

    /// An fd that polls readable once the child has exited, so an event loop (tokio's
    /// `AsyncFd`, async-io's `Async`) can wait for it without a thread; then
    /// [`try_wait`](Self::try_wait) reaps it without blocking. It is the child's pidfd
    /// (`create_pidfd`'s, else one opened now with `pidfd_open(2)`, Linux 5.3+); elsewhere,
    /// or on an older kernel, this is an `Unsupported` error. Once the child has been waited
    /// for, its pid may be reused, so this is an `InvalidInput` error then.
    pub fn exit_fd(&mut self) -> io::Result<BorrowedFd<'_>> {
        if self.status.is_some() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the child has already been waited for",
            ));
        }
        if self.pidfd.is_none() && self.exit_fd.is_none() {
            self.exit_fd = Some(pidfd::open(self.pid).map_err(unsupported_if_missing)?);
        }
        match (&self.pidfd, &self.exit_fd) {
            (Some(p), _) => Ok(p.0.as_fd()),
            (None, Some(fd)) => Ok(fd.as_fd()),
            (None, None) => Err(io::Error::other("no exit fd")),
        }
    }

    /// Closes stdin, reads stdout and stderr to the end, then waits.
    pub fn wait_with_output(mut self) -> io::Result<Output> {
        drop(self.stdin.take());
        let (stdout, stderr) = read2(
            self.stdout.take().map(Into::into),
            self.stderr.take().map(Into::into),
        )?;
        let status = self.wait()?;
        Ok(Output {
            status,
            stdout,
            stderr,
        })
    }
}

/// `ENOSYS` (a kernel without pidfds) as `Unsupported`.
fn unsupported_if_missing(e: io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(libc::ENOSYS) => io::Error::new(io::ErrorKind::Unsupported, e),
        _ => e,
    }
}

/// `waitpid(pid, options)`, retried on `EINTR`; `None` if `WNOHANG` found it still running.
pub(super) fn wait_pid(pid: libc::pid_t, options: libc::c_int) -> io::Result<Option<ExitStatus>> {
    let mut raw = 0;
    loop {
        // SAFETY: waitpid writes the status word into `raw`.
        match check(unsafe { libc::waitpid(pid, &mut raw, options) }) {
            Ok(0) => return Ok(None),
            Ok(_) => return Ok(Some(ExitStatus(raw))),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Kills and reaps a child that started although its spawn is reported as failed (`e`), so
/// no process or zombie is left behind.
pub(super) fn abandon(pid: libc::pid_t, e: io::Error) -> io::Error {
    // SAFETY: a child of ours that nobody has reaped. Failure (ESRCH) means it is gone.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let _ = wait_pid(pid, 0);
    e
}

/// Reaps a child that failed before exec and returns the errno it reported.
pub(super) fn reap_failed(pid: libc::pid_t, errno: libc::c_int) -> io::Error {
    // Its errno is the error worth reporting; a failed reap (ECHILD if someone else's
    // waitpid(-1) took it) leaves nothing behind to clean up.
    let _ = wait_pid(pid, 0);
    io::Error::from_raw_os_error(errno)
}
