//! The `Command` builders for the child's session, terminal, parent-death signal and cgroup,
//! and for how a spawn is retried and a `Child` ends: each a typed option, so none of them
//! needs a `pre_exec` closure (and so a `fork`).

use std::os::fd::OwnedFd;

use super::Command;
use crate::front::stdio::cloexec_at_handover;

impl Command {
    /// The signal the child gets when its parent goes away (Linux `prctl(PR_SET_PDEATHSIG)`,
    /// FreeBSD `procctl(PROC_PDEATHSIG_CTL)`), set in the child after its id changes (which
    /// would clear it). Right after setting it, the child compares `getppid()` with the
    /// parent's pid taken before the spawn: a parent that died in between (the child was
    /// re-parented) gets the child the signal at once, so there is no window in which the
    /// death goes unnoticed.
    ///
    /// **Linux fires it when the *thread* that spawned the child ends**, not the process: a
    /// child spawned from a short-lived thread (a thread pool's worker, a `spawn_blocking`
    /// task, a Go goroutine's locked OS thread: the pitfall Go's `Pdeathsig` documents) gets
    /// the signal when that thread exits, while the process runs on. Spawn such children
    /// from a thread that lives as long as they should. FreeBSD fires it when the process
    /// ends. A signal this platform does not know fails the spawn with `InvalidInput`.
    ///
    /// `posix_spawn` cannot express it (forced: `Unsupported`, `Auto` skips it); nor can
    /// platforms other than Linux, Android and FreeBSD (every strategy: `Unsupported`).
    /// With `CommandExt::exec` the process sets it on itself and watches its own parent.
    /// Which Linux kernels have it: see the `kernel.PR_SET_PDEATHSIG` row of the table
    /// (`docs/SUMMARY.md`: since 2.1.57 per prctl(2), and probed on each Linux column).
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let mut c = Command::new("true");
    /// c.parent_death_signal(libc::SIGTERM);
    /// if cfg!(any(target_os = "linux", target_os = "android", target_os = "freebsd")) {
    ///     assert!(c.status()?.success());
    /// }
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn parent_death_signal(&mut self, signal: libc::c_int) -> &mut Command {
        self.req.pdeathsig = Some(signal);
        self
    }

    /// Whether the child is killed (`SIGKILL`) when this process ends, however it ends
    /// (`SIGKILL` included), and when its [`Child`](crate::Child) is dropped unwaited (this
    /// implies [`kill_on_drop`](Self::kill_on_drop)).
    ///
    /// The mechanism, and what each guarantees:
    /// - **`CLONE_PIDFD_AUTOKILL`** (Linux 7.1), taken by the `Clone3` strategy (and `Auto`
    ///   when it picks clone3) when the command also sets [`no_new_privs`](Self::no_new_privs)
    ///   (the kernel refuses the flag without it unless the caller has `CAP_SYS_ADMIN`), does
    ///   not ask for [`create_pidfd`](crate::os::linux::process::CommandExt::create_pidfd),
    ///   and a clone3 call that creates nothing shows that the kernel knows the flags. The
    ///   kernel kills the child when the pidfd clone3 returned is closed, which the `Child`
    ///   owns: its drop, or this process's end. It is the *process* that counts, not the
    ///   thread that spawned the child, and the kernel keeps it across every `execve` of the
    ///   child. The child is created with `CLONE_AUTOREAP` too (the kernel demands it): no
    ///   zombie, and `wait` reads the status from the pidfd (`PIDFD_INFO_EXIT`).
    /// - **Otherwise `PR_SET_PDEATHSIG` with `SIGKILL`** (Linux, Android; FreeBSD's
    ///   `PROC_PDEATHSIG_CTL`), as [`parent_death_signal`](Self::parent_death_signal) sets it,
    ///   with its race check. Weaker: on Linux it fires when the *thread* that spawned the
    ///   child ends, even while the process runs on, and the kernel clears it when the child
    ///   execs a set-user-ID or set-group-ID program or one with file capabilities (unless
    ///   `no_new_privs` keeps that exec from gaining anything), or changes its credentials.
    ///
    /// `posix_spawn` cannot express it (forced: `Unsupported`, `Auto` skips it); nor can
    /// platforms without a parent-death signal, nor `CommandExt::exec` (`Unsupported`). An
    /// explicit `parent_death_signal` is set as well. Which kernels have the flag: the
    /// `kernel.CLONE_PIDFD_AUTOKILL` row of the table (`docs/SUMMARY.md`).
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let mut c = Command::new("true");
    /// c.no_new_privs(true).kill_on_parent_death(true);
    /// if cfg!(any(target_os = "linux", target_os = "android", target_os = "freebsd")) {
    ///     assert!(c.status()?.success());
    /// }
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn kill_on_parent_death(&mut self, on: bool) -> &mut Command {
        self.req.kill_on_parent_death = on;
        self
    }

    /// Whether the child runs with `no_new_privs` (Linux, Android): neither it nor anything it
    /// execs can gain privileges through `execve`: set-user-ID and set-group-ID bits and file
    /// capabilities are ignored, and the flag can never be cleared (prctl(2)). What
    /// seccomp filters and `CLONE_PIDFD_AUTOKILL` ask for.
    ///
    /// Where clone3 knows `CLONE_NNP` (Linux 7.1; learned once with a clone3 call that
    /// creates nothing), the `Clone3` strategy (and `Auto` when it picks clone3) sets it in
    /// the clone call itself: the child has it from its first instruction. Elsewhere (older
    /// kernels, `CloneVfork`, `Fork`) the child calls `prctl(PR_SET_NO_NEW_PRIVS, 1)` before
    /// its working directory, fds and signals are set up and before `execve`: the same
    /// guarantee for everything it execs, only not for the few system calls it makes before.
    /// The flag only limits what `execve` grants, so changing ids (`CommandExt::uid`) works
    /// as before.
    ///
    /// `posix_spawn` cannot express it (forced: `Unsupported`, `Auto` skips it); nor can
    /// other platforms (every strategy: `Unsupported`), nor `CommandExt::exec` (a failed
    /// exec could not clear it again: `Unsupported`). Which kernels have `CLONE_NNP`: the
    /// `kernel.CLONE_NNP` row of the table (`docs/SUMMARY.md`).
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let mut c = Command::new("true");
    /// c.no_new_privs(true);
    /// if cfg!(any(target_os = "linux", target_os = "android")) {
    ///     assert!(c.status()?.success());
    /// }
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn no_new_privs(&mut self, on: bool) -> &mut Command {
        self.req.no_new_privs = on;
        self
    }

    /// Makes the terminal `tty` the child's controlling terminal: the child starts a new
    /// session (`setsid`, as with [`Command::setsid`]) and then `ioctl(tty, TIOCSCTTY, 0)`,
    /// before its process group, fds and everything else, so `tty` is the fd given here
    /// whatever the fd mapping does later (map it to 0..=2 as well if the child should read
    /// and write it). The command owns the fd and marks it close-on-exec at once. A `tty`
    /// that is not a terminal, or one that is another session's controlling terminal, fails
    /// the spawn with the child's errno (`ENOTTY`, `EPERM`).
    ///
    /// `posix_spawn` has no action for it (forced: `Unsupported`, `Auto` skips it).
    /// Which Linux kernels have `TIOCSCTTY`: see the `kernel.TIOCSCTTY` row of the table
    /// (`docs/SUMMARY.md`: ioctl_tty(2) names no first release, so its start is unknown).
    pub fn controlling_terminal(&mut self, tty: impl Into<OwnedFd>) -> &mut Command {
        let fd = tty.into();
        cloexec_at_handover(&fd);
        self.req.ctty = Some(fd);
        self
    }

    /// Makes the child's process group the foreground process group of the terminal `tty`
    /// (`tcsetpgrp(tty, getpgrp())` in the child, after [`process_group`] and
    /// [`controlling_terminal`]), as a shell does for a job. The group is always the child's
    /// own (the one `process_group` put it in): that is the one thing a child can do for
    /// itself that its parent cannot do race-free afterwards, and the one
    /// `posix_spawn_file_actions_addtcsetpgrp_np` expresses; any other group a parent can
    /// put in front itself. `tty` must be the child's controlling terminal (it is the
    /// parent's, unless the child starts a session with [`controlling_terminal`]); the child
    /// has every signal blocked until it execs, so `SIGTTOU` does not stop it. A failure is
    /// the child's errno (`ENOTTY`, `EPERM`).
    ///
    /// `posix_spawn` expresses it with glibc 2.35's `addtcsetpgrp_np` and not otherwise
    /// (forced without it: `Unsupported`).
    ///
    /// [`process_group`]: crate::interop::os::unix::process::CommandExt::process_group
    /// [`controlling_terminal`]: Command::controlling_terminal
    pub fn foreground(&mut self, tty: impl Into<OwnedFd>) -> &mut Command {
        let fd = tty.into();
        cloexec_at_handover(&fd);
        self.req.foreground = Some(fd);
        self
    }

    /// Starts the child in the cgroup v2 directory `dir` (an open directory fd), through
    /// clone3's `CLONE_INTO_CGROUP` (Linux 5.7+): the child is in the cgroup from its first
    /// instruction, and no `cgroup.procs` write races its start. Only the `Clone3` strategy
    /// can do this: `Auto` uses it (and is `Unsupported` where clone3 is refused), every
    /// other strategy is `Unsupported`. A directory that is not a cgroup v2 one, or one the
    /// kernel will not put a process in, fails the spawn with the kernel's errno (`EBADF`,
    /// `EOPNOTSUPP`, `EBUSY`, ...). `CommandExt::exec` cannot move the running process this way:
    /// `Unsupported`.
    pub fn cgroup(&mut self, dir: impl Into<OwnedFd>) -> &mut Command {
        let fd = dir.into();
        cloexec_at_handover(&fd);
        self.req.cgroup = Some(fd);
        self
    }

    /// Tries a spawn that fails with `ETXTBSY` up to `retries` more times, sleeping 1 ms
    /// before the first retry and twice as long before each next one (capped at 100 ms
    /// each), so at most about `retries × 100 ms` in all. Default 0 (no retry), as in std.
    ///
    /// `ETXTBSY` comes back when the program is open for writing somewhere: typically a
    /// program this process has just written, whose write fd another thread's concurrent
    /// `fork` copied into a child that has not exec'd yet (rust-lang/rust#114554). That
    /// child closes it within moments, so a short wait is the fix cargo and rustc carry.
    /// Each retry is a whole new spawn; a failed one leaves nothing behind.
    pub fn retry_etxtbsy(&mut self, retries: u32) -> &mut Command {
        self.req.retry_etxtbsy = retries;
        self
    }

    /// Whether the [`Child`](crate::Child) sends its process `SIGKILL` and reaps it when
    /// dropped unwaited (default off, as in std: a dropped child runs on). As tokio's
    /// `kill_on_drop`, the drop never blocks: a child that has not ended by then (the kill
    /// takes a moment, or failed with `EPERM` because the child ran a setuid program) is
    /// reaped by one background thread once it exits, so it leaves no zombie either. A
    /// child whose pidfd was taken out with `ChildExt::into_pidfd` is the pidfd owner's,
    /// and is neither killed nor reaped at the drop.
    pub fn kill_on_drop(&mut self, on: bool) -> &mut Command {
        self.req.kill_on_drop = on;
        self
    }

    /// Whether [`kill_on_drop`](Self::kill_on_drop) is set (tokio's and async-process's
    /// `get_kill_on_drop`).
    pub fn get_kill_on_drop(&self) -> bool {
        self.req.kill_on_drop
    }

    /// Whether the child will lead its own process group (`setsid`, a controlling
    /// terminal, or `process_group(0)`), so its pid is that group's id.
    pub(crate) fn leads_own_group(&self) -> bool {
        self.req.setsid || self.req.ctty.is_some() || self.req.pgid == Some(0)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::time::Duration;

    use rstest::rstest;

    use super::*;
    use crate::front::child::Child;
    use crate::request::Defaults;
    use crate::interop::os::unix::process::ExitStatusExt;
    use crate::plan::Prepared;
    use crate::request::Strategy;

    /// The child's `getppid()` check: a parent that ended before the child's `prctl` (here
    /// made to look so by expecting another parent pid) still gets the child the signal.
    #[rstest]
    #[case(Strategy::Fork)]
    #[case(Strategy::Clone3)]
    #[case(Strategy::CloneVfork)]
    fn a_parent_gone_before_the_prctl_still_signals(#[case] strategy: Strategy) {
        let mut cmd = Command::new("sleep");
        cmd.arg("30").parent_death_signal(libc::SIGTERM);
        let (mut p, ends) = Prepared::new(&cmd.req, Defaults::Inherit).expect("prepare");
        if let Some((_, parent)) = &mut p.pdeathsig {
            *parent = 1;
        }
        let (spawned, used) = match crate::strategies::spawn(strategy, &mut p) {
            Err(e) if e.kind() == std::io::ErrorKind::Unsupported && strategy == Strategy::Clone3 => {
                println!("skipped: clone3 refused here: {e}");
                return;
            }
            r => r.expect("spawn"),
        };
        let mut child = Child::new(spawned.pid, used, ends, spawned.pidfd, false);
        let status = child.wait_timeout(Duration::from_secs(10)).expect("wait");
        let Some(status) = status else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{strategy}: the child ran on as if its parent were there");
        };
        assert_eq!(status.signal(), Some(libc::SIGTERM), "{strategy}: {status:?}");
    }
}
