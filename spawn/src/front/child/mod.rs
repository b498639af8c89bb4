//! A running or finished child process.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::time::Duration;
use std::process::{ChildStderr, ChildStdin, ChildStdout};

use crate::platform::errno::check;
use crate::platform::wait;
use super::pidfd::{self, PidFd, Reaped};
use output::read2;
use crate::plan::ParentEnds;
use super::status::{ExitStatus, Output};
use crate::request::Strategy;

pub(crate) mod exit_notifier;
mod output;
mod process_group;
mod reaper;
mod wait_timeout;

pub use exit_notifier::ExitNotifier;
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
    /// The status once reaped, here or through the pidfd ([`PidFd::wait`]).
    status: Reaped,
    /// The pidfd taken at spawn (for `create_pidfd` or `Command::exit_fd`), or why there is
    /// none, or one opened later for [`Child::exit_fd`].
    pidfd: Option<io::Result<PidFd>>,
    /// Whether `ChildExt::pidfd` hands it out (`create_pidfd` asked for it).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pidfd_public: bool,
    /// Whether dropping this kills and reaps the child ([`Command::kill_on_drop`](crate::Command::kill_on_drop)).
    kill_on_drop: bool,
    /// Whether dropping this unwaited hands the child to the reaper (so it leaves no
    /// zombie); implied by `kill_on_drop`.
    reap_on_drop: bool,
    /// Whether the child leads its own process group (so its pid is the group's id).
    own_group: bool,
    /// Whether the kernel reaps the child (`CLONE_AUTOREAP`, for `kill_on_parent_death`):
    /// no `waitpid` finds it; its pidfd says when it exited and with what status.
    autoreaped: bool,
    /// The parent's end of the child's stdin, if piped.
    pub stdin: Option<ChildStdin>,
    /// The parent's end of the child's stdout, if piped.
    pub stdout: Option<ChildStdout>,
    /// The parent's end of the child's stderr, if piped.
    pub stderr: Option<ChildStderr>,
}

impl Child {
    /// `pidfd` is the spawn's (`None`: not asked for); `pidfd_public` says whether
    /// `ChildExt::pidfd` may hand it out.
    pub(crate) fn new(
        pid: libc::pid_t,
        strategy: Strategy,
        ends: ParentEnds,
        pidfd: Option<io::Result<OwnedFd>>,
        pidfd_public: bool,
    ) -> Child {
        let status = Reaped::default();
        let pidfd = pidfd.map(|r| {
            r.map(|fd| PidFd::for_child(fd, status.clone()))
                .map_err(unsupported_if_missing)
        });
        Child {
            pid,
            strategy,
            status,
            pidfd,
            pidfd_public,
            kill_on_drop: false,
            reap_on_drop: false,
            own_group: false,
            autoreaped: false,
            stdin: ends.stdin.map(ChildStdin::from),
            stdout: ends.stdout.map(ChildStdout::from),
            stderr: ends.stderr.map(ChildStderr::from),
        }
    }

    /// Whether dropping this `Child` unwaited hands the process to the reaper thread
    /// (`reaper.rs`), which reaps it once it exits, without blocking the dropping thread.
    /// For wrappers whose peers reap dropped children (tokio's `Child`); std's own `Child`
    /// leaves a zombie, and so does this one unless asked.
    pub(crate) fn reap_on_drop(&mut self, on: bool) {
        self.reap_on_drop = on;
    }

    /// The kernel reaps this child (the spawn used `CLONE_AUTOREAP`).
    pub(crate) fn set_autoreaped(&mut self) {
        self.autoreaped = true;
    }

    /// What the command said about the child's end and group.
    pub(crate) fn set_lifecycle(&mut self, kill_on_drop: bool, own_group: bool) {
        self.kill_on_drop = kill_on_drop;
        self.own_group = own_group;
    }

    /// Sends `SIGKILL` to the child's whole process group (`kill(-pid, SIGKILL)`), so the
    /// processes it started go too (rust-lang/rust#115241 and kin). Only for a child that
    /// leads its own group: one spawned with `process_group(0)`, [`Command::setsid`] or
    /// [`Command::controlling_terminal`]; for any other this is an `InvalidInput` error,
    /// never a signal to a group that may be this process's own.
    ///
    /// Only while the child is unreaped (running, or exited and not yet waited for: its
    /// zombie keeps the group's id taken). Once it has been waited for, here or elsewhere
    /// (`SIGCHLD` ignored, a `waitpid` by another part of the program), the id may already
    /// be another group's, so this is an `InvalidInput` error and nothing is signalled.
    /// With a pidfd (Linux: [`Command::exit_fd`](crate::Command::exit_fd) or
    /// `create_pidfd`) that is certain, and the signal goes through it
    /// (`PIDFD_SIGNAL_PROCESS_GROUP`, Linux 6.9+). Limit: without one, whether the child
    /// was reaped elsewhere is asked by pid (`waitid(WNOWAIT)`), which cannot tell it from
    /// another child of this process that took the freed pid. To
    /// kill what a child leaves behind when it exits, use
    /// [`wait_then_kill_process_group`](Self::wait_then_kill_process_group).
    ///
    /// [`Command::setsid`]: crate::Command::setsid
    /// [`Command::controlling_terminal`]: crate::Command::controlling_terminal
    ///
    /// ```
    /// use spawnmatrix_spawn::os::unix::process::{CommandExt, ExitStatusExt};
    /// use spawnmatrix_spawn::Command;
    ///
    /// let mut child = Command::new("sh").args(["-c", "sleep 60 & wait"]).process_group(0).spawn()?;
    /// child.kill_process_group()?;
    /// assert_eq!(child.wait()?.signal(), Some(libc::SIGKILL));
    /// // Reaped: its group id may be reused, so a group kill now is refused.
    /// assert_eq!(child.kill_process_group().unwrap_err().kind(), std::io::ErrorKind::InvalidInput);
    ///
    /// let mut other = Command::new("sleep").arg("60").spawn()?;
    /// assert_eq!(other.kill_process_group().unwrap_err().kind(), std::io::ErrorKind::InvalidInput);
    /// other.kill()?;
    /// other.wait()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn kill_process_group(&mut self) -> io::Result<()> {
        let pgid = self.held_group()?;
        self.kill_group(pgid)
    }

    /// Through the pidfd where there is one and the kernel can (so the group is the child's
    /// own even if another thread reaps it meanwhile), else by id.
    fn kill_group(&self, pgid: libc::pid_t) -> io::Result<()> {
        if let Some(Ok(pidfd)) = &self.pidfd {
            if let Some(r) = pidfd.kill_group() {
                return r;
            }
        }
        process_group::kill(pgid)
    }

    /// Waits for the child to exit, then kills its whole process group, then reaps the
    /// child and returns its status: the clean-up path for a leader whose stragglers
    /// (background jobs, daemons it started in its group) must not outlive it. The exit is
    /// seen without reaping (`waitid(WNOWAIT)`), so the zombie still holds the group's id
    /// while the group is signalled and no other group can be reached. Closes stdin first,
    /// as [`wait`](Self::wait) does. The same `InvalidInput` errors as
    /// [`kill_process_group`](Self::kill_process_group) (not a leader; already reaped).
    ///
    /// ```
    /// use spawnmatrix_spawn::os::unix::process::CommandExt;
    /// use spawnmatrix_spawn::Command;
    ///
    /// // The leader exits at once and leaves a `sleep` behind in its group.
    /// let mut child = Command::new("sh").args(["-c", "sleep 60 & exit 0"]).process_group(0).spawn()?;
    /// assert!(child.wait_then_kill_process_group()?.success()); // and the sleep is gone
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn wait_then_kill_process_group(&mut self) -> io::Result<ExitStatus> {
        let pgid = self.held_group()?;
        drop(self.stdin.take());
        process_group::wait_exited(pgid)?;
        self.kill_group(pgid)?;
        self.wait()
    }

    /// The child's group id, if it leads its group and is still unreaped (so the id is
    /// still that group's).
    fn held_group(&self) -> io::Result<libc::pid_t> {
        if !self.own_group {
            return Err(process_group::not_a_leader());
        }
        if self.status.get().is_some() || self.pid <= 0 {
            return Err(process_group::released());
        }
        // Reaped elsewhere? A pidfd tells for certain; by pid, another child of this
        // process that took the freed pid would look the same.
        let held = match &self.pidfd {
            Some(Ok(pidfd)) => pidfd.unreaped()?,
            _ => process_group::still_held(self.pid)?,
        };
        if !held {
            return Err(process_group::released());
        }
        Ok(self.pid)
    }

    /// Waits up to `timeout` for the child to end: its status, or `None` if it still runs
    /// (it is not killed). Stdin stays open, as with [`try_wait`](Self::try_wait).
    ///
    /// No busy loop: on Linux it sleeps in `poll` on the child's pidfd (the one
    /// [`exit_fd`](Self::exit_fd) gives, so the same caveat holds for a pidfd not taken at
    /// spawn), woken the moment the child exits. Elsewhere, or where no pidfd can be had, it
    /// checks with `waitpid(WNOHANG)` and sleeps between checks, 1 ms at first and twice as
    /// long each time up to 50 ms, so it notices an exit at most 50 ms late.
    ///
    /// ```
    /// use std::time::Duration;
    /// use spawnmatrix_spawn::Command;
    ///
    /// let mut child = Command::new("sleep").arg("60").spawn()?;
    /// assert!(child.wait_timeout(Duration::from_millis(50))?.is_none());
    /// child.kill()?;
    /// assert!(child.wait_timeout(Duration::from_secs(10))?.is_some());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn wait_timeout(&mut self, timeout: Duration) -> io::Result<Option<ExitStatus>> {
        if let Some(s) = self.try_wait()? {
            return Ok(Some(s));
        }
        let Some(deadline) = std::time::Instant::now().checked_add(timeout) else {
            return self.wait().map(Some);
        };
        let pidfd = match cfg!(target_os = "linux") {
            true => self.exit_fd().ok().map(|fd| fd.as_raw_fd()),
            false => None,
        };
        match pidfd {
            Some(fd) => wait_timeout::poll_until(fd, deadline)?,
            None => {
                return wait_timeout::backoff_until(deadline, || self.try_wait());
            }
        }
        self.try_wait()
    }

    /// The child's process id. Limit (Linux, the `posix_spawn` strategy with a pidfd):
    /// `pidfd_spawn` gives no pid, and a child that the system reaped before its pid could be
    /// read from the pidfd (`SIGCHLD` ignored and a program that ends at once) has none to
    /// give: this is then 0, and the `Child` works through its pidfd (its `wait` gives the
    /// status where Linux 6.15 keeps it, else `ECHILD`, as std's `wait` does with `SIGCHLD`
    /// ignored).
    pub fn id(&self) -> u32 {
        self.pid as u32
    }

    /// The strategy that created the child (never `Auto`).
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Sends `SIGKILL`, unless the child has already been waited for (here or through its
    /// pidfd). With a pidfd (`create_pidfd`, [`Command::exit_fd`](crate::Command::exit_fd))
    /// the signal goes through it (`pidfd_send_signal`), so it can never reach a process that
    /// reused the pid; without one it is `kill(pid)`, as std does.
    pub fn kill(&mut self) -> io::Result<()> {
        if self.status.get().is_some() {
            return Ok(());
        }
        if let Some(Ok(pidfd)) = &self.pidfd {
            return pidfd.kill();
        }
        if self.pid <= 0 {
            return Ok(()); // No pid and no pidfd: it was reaped before its pid was read.
        }
        // SAFETY: kill with a pid this Child has not reaped, so it is still ours.
        check(unsafe { libc::kill(self.pid, libc::SIGKILL) }).map(drop)
    }

    /// Closes stdin (so the child sees EOF) and waits for the child to end.
    pub fn wait(&mut self) -> io::Result<ExitStatus> {
        drop(self.stdin.take());
        if let Some(s) = self.status.get() {
            return Ok(*s);
        }
        let s = match self.pid {
            _ if self.autoreaped => self.wait_autoreaped(false)?,
            0 => self.wait_without_pid(false)?,
            pid => wait_pid(pid, 0)?,
        };
        let s = s.ok_or_else(|| io::Error::other("waitpid without WNOHANG returned 0"))?;
        Ok(*self.status.get_or_init(|| s))
    }

    /// For a child with no pid (reaped before its pid was read): through its pidfd, and
    /// once that answers `ECHILD`, the status the kernel kept, if it kept one.
    fn wait_without_pid(&self, nohang: bool) -> io::Result<Option<ExitStatus>> {
        let Some(Ok(pidfd)) = &self.pidfd else {
            return Err(io::Error::from_raw_os_error(libc::ECHILD));
        };
        let r = match nohang {
            true => pidfd.try_wait(),
            false => pidfd.wait().map(Some),
        };
        match r {
            Err(e) if e.raw_os_error() == Some(libc::ECHILD) => {
                pidfd.exit_status().map(Some).ok_or(e)
            }
            r => r,
        }
    }

    /// For a child the kernel reaps (`CLONE_AUTOREAP`): its pidfd polls readable once it has
    /// exited, and then holds its status (`PIDFD_INFO_EXIT`, 6.15, older than the flag).
    fn wait_autoreaped(&self, nohang: bool) -> io::Result<Option<ExitStatus>> {
        let Some(Ok(pidfd)) = &self.pidfd else {
            return Err(io::Error::from_raw_os_error(libc::ECHILD));
        };
        let mut p = libc::pollfd {
            fd: pidfd.as_fd().as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            // SAFETY: one valid pollfd.
            match unsafe { libc::poll(&mut p, 1, if nohang { 0 } else { -1 }) } {
                -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
                -1 => return Err(io::Error::last_os_error()),
                0 => return Ok(None),
                _ => break,
            }
        }
        let status = pidfd.exit_status();
        status
            .map(Some)
            .ok_or_else(|| io::Error::from_raw_os_error(libc::ECHILD))
    }

    /// The status if the child has ended, without blocking.
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        if let Some(s) = self.status.get() {
            return Ok(Some(*s));
        }
        let s = match self.pid {
            _ if self.autoreaped => self.wait_autoreaped(true)?,
            0 => self.wait_without_pid(true)?,
            pid => wait_pid(pid, libc::WNOHANG)?,
        };
        Ok(s.map(|s| *self.status.get_or_init(|| s)))
    }

    /// An fd that polls readable once the child has exited, so an event loop (tokio's
    /// `AsyncFd`, async-io's `Async`) can wait for it without a thread; then
    /// [`try_wait`](Self::try_wait) reaps it without blocking. It is the child's pidfd: the
    /// one taken at spawn when the command asked with [`Command::exit_fd`](crate::Command::exit_fd)
    /// or `create_pidfd` (race-free), else one opened now with `pidfd_open(2)` (Linux 5.3+),
    /// which is race-free only while nothing else can reap the child (`SIGCHLD` ignored,
    /// `SA_NOCLDWAIT` or a `waitpid(-1)` elsewhere can, and then the pid may be another
    /// process's). Elsewhere, or on an older kernel, this is an `Unsupported` error. Once the
    /// child has been waited for, its pid may be reused, so this is an `InvalidInput` error.
    pub fn exit_fd(&mut self) -> io::Result<BorrowedFd<'_>> {
        if self.status.get().is_some() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the child has already been waited for",
            ));
        }
        if self.pidfd.is_none() {
            let fd = pidfd::open(self.pid).map_err(unsupported_if_missing)?;
            self.pidfd = Some(Ok(PidFd::for_child(fd, self.status.clone())));
        }
        match &self.pidfd {
            Some(Ok(p)) => Ok(p.as_fd()),
            Some(Err(e)) => Err(same_error(e)),
            None => Err(io::Error::other("no exit fd")),
        }
    }

    /// An owned fd that polls readable once the child has exited, for an event loop that
    /// must own what it waits on (the `Child` stays free to be waited, killed or dropped).
    /// Linux: a duplicate of the child's pidfd, as [`exit_fd`](Self::exit_fd) gives it (the
    /// same race notes). macOS and the BSDs: a kqueue with an `EVFILT_PROC`/`NOTE_EXIT`
    /// filter. Elsewhere `Unsupported`; after a wait `InvalidInput` (the pid may be reused).
    ///
    /// ```
    /// use std::time::Duration;
    /// use spawnmatrix_spawn::Command;
    ///
    /// let mut child = Command::new("true").spawn()?;
    /// if let Ok(exit) = child.exit_notifier() {
    ///     assert!(exit.wait_timeout(Duration::from_secs(60))?);
    ///     assert!(child.try_wait()?.is_some()); // reaps without blocking
    /// }
    /// child.wait()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn exit_notifier(&mut self) -> io::Result<ExitNotifier> {
        exit_notifier::for_child(self).map(ExitNotifier::new)
    }

    /// Whether the status is known (this `Child` or its pidfd reaped the process).
    pub(crate) fn has_been_waited(&self) -> bool {
        self.status.get().is_some()
    }

    /// The pidfd `create_pidfd` asked for, or why there is none (`ChildExt::pidfd`).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pub(crate) fn public_pidfd(&self) -> io::Result<&PidFd> {
        match (&self.pidfd, self.pidfd_public) {
            (Some(Ok(p)), true) => Ok(p),
            (Some(Err(e)), true) => Err(same_error(e)),
            _ => Err(io::Error::other("No pidfd was created.")),
        }
    }

    /// Takes the pidfd `create_pidfd` asked for out of the child (`ChildExt::into_pidfd`).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pub(crate) fn take_public_pidfd(mut self) -> Result<PidFd, Child> {
        match (self.pidfd.take(), self.pidfd_public) {
            (Some(Ok(p)), true) => {
                // The caller now owns the process's end: no kill or reap at this drop.
                self.kill_on_drop = false;
                self.reap_on_drop = false;
                Ok(p)
            }
            (other, _) => {
                self.pidfd = other;
                Err(self)
            }
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

impl Drop for Child {
    /// With [`Command::kill_on_drop`](crate::Command::kill_on_drop): sends `SIGKILL` to a
    /// child not yet waited for, then hands it to the reaper thread unless it is already
    /// gone, so nothing blocks here even when the signal fails (`EPERM`) or is slow to take
    /// effect. Otherwise nothing, as in std.
    fn drop(&mut self) {
        if !(self.kill_on_drop || self.reap_on_drop) || self.status.get().is_some() {
            return;
        }
        if self.kill_on_drop {
            // Failure (ESRCH: already ended; EPERM) leaves the reap to do either way.
            let _ = self.kill();
        }
        if self.autoreaped {
            return; // The kernel reaps it.
        }
        if matches!(self.try_wait(), Ok(Some(_))) {
            return;
        }
        let pidfd = match self.pidfd.take() {
            Some(Ok(p)) => Some(p),
            _ => None,
        };
        let notifier = match pidfd {
            Some(_) => None,
            None => exit_notifier::for_child(self).ok(),
        };
        let pid = (self.pid > 0).then_some(self.pid);
        reaper::adopt(reaper::Orphan::new(pid, pidfd, notifier));
    }
}

/// A stored error, handed out again (io::Error is not Clone).
fn same_error(e: &io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(n) => io::Error::from_raw_os_error(n),
        None => io::Error::new(e.kind(), e.to_string()),
    }
}

/// `ENOSYS` (a kernel without pidfds) as `Unsupported`.
fn unsupported_if_missing(e: io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(libc::ENOSYS) => io::Error::new(io::ErrorKind::Unsupported, e),
        _ => e,
    }
}

/// `waitpid(pid, options)` as an [`ExitStatus`]; `None` if `WNOHANG` found it still running.
pub(crate) fn wait_pid(pid: libc::pid_t, options: libc::c_int) -> io::Result<Option<ExitStatus>> {
    Ok(wait::wait_pid(pid, options)?.map(ExitStatus))
}
