//! The `Command` builder: what to run and how; `spawn`, `output` and `status`.

use std::ffi::OsStr;
use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::path::Path;

use super::child::Child;
use super::status::{ExitStatus, Output};
use super::stdio::{cloexec_at_handover, Stdio};
use crate::plan::Prepared;
use crate::request::{Cwd, Defaults, Mask, Request, Rlimit, StdioKind, Strategy};

mod debug;
mod iters;
mod setup;

pub use iters::{CommandArgs, CommandEnvs};
/// A process to spawn. Mirrors `std::process::Command`; the [crate docs](crate) give the
/// semantics, which are the same for every [`Strategy`].
///
/// ```
/// use spawnmatrix_spawn::{Command, Stdio};
///
/// let status = Command::new("sh")
///     .args(["-c", "test \"$GREETING\" = hello && test \"$(pwd)\" = /"])
///     .env("GREETING", "hello")
///     .current_dir("/")
///     .stdout(Stdio::null())
///     .status()?;
/// assert!(status.success());
///
/// // A failed exec is an error carrying the errno, never a child exiting 127.
/// let err = Command::new("/nonexistent/program").status().unwrap_err();
/// assert_eq!(err.raw_os_error(), Some(libc::ENOENT));
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Command {
    /// What to run and how: the request every layer below reads.
    pub(crate) req: Request,
}

impl Command {
    /// A command that runs `program` with no arguments, the parent's environment, working
    /// directory and stdio, using [`Strategy::Auto`].
    pub fn new(program: impl AsRef<OsStr>) -> Command {
        Command {
            req: Request::new(program.as_ref()),
        }
    }

    /// Adds one argument.
    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Command {
        self.req.argv.push(arg.as_ref().to_os_string());
        self
    }

    /// Adds several arguments.
    pub fn args<I, S>(&mut self, args: I) -> &mut Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.req.argv
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Sets an environment variable for the child.
    pub fn env(&mut self, key: impl AsRef<OsStr>, val: impl AsRef<OsStr>) -> &mut Command {
        self.req.env.vars.insert(
            key.as_ref().to_os_string(),
            Some(val.as_ref().to_os_string()),
        );
        self
    }

    /// Sets several environment variables for the child.
    pub fn envs<I, K, V>(&mut self, vars: I) -> &mut Command
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        for (k, v) in vars {
            self.env(k, v);
        }
        self
    }

    /// Removes an environment variable from the child's environment.
    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Command {
        if self.req.env.clear {
            self.req.env.vars.remove(key.as_ref());
        } else {
            self.req.env.vars.insert(key.as_ref().to_os_string(), None);
        }
        self
    }

    /// The child starts from an empty environment (variables set afterwards are kept).
    pub fn env_clear(&mut self) -> &mut Command {
        self.req.env.clear = true;
        self.req.env.vars.clear();
        self
    }

    /// The child's working directory; a relative program path is resolved against it.
    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Command {
        self.req.cwd = Some(Cwd::Path(dir.as_ref().to_path_buf()));
        self
    }

    /// The child's working directory, as an open directory fd (`fchdir` in the child).
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let dir = std::fs::File::open("/")?;
    /// let status = Command::new("sh")
    ///     .args(["-c", "test \"$(pwd)\" = /"])
    ///     .current_dir_fd(dir)
    ///     .status()?;
    /// assert!(status.success());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn current_dir_fd(&mut self, dir: impl Into<OwnedFd>) -> &mut Command {
        let dir = dir.into();
        cloexec_at_handover(&dir);
        self.req.cwd = Some(Cwd::Fd(dir));
        self
    }

    /// The child's stdin.
    pub fn stdin(&mut self, s: impl Into<Stdio>) -> &mut Command {
        self.req.stdio[0] = Some(s.into().0);
        self
    }

    /// The child's stdout.
    pub fn stdout(&mut self, s: impl Into<Stdio>) -> &mut Command {
        self.req.stdio[1] = Some(s.into().0);
        self
    }

    /// The child's stderr.
    pub fn stderr(&mut self, s: impl Into<Stdio>) -> &mut Command {
        self.req.stdio[2] = Some(s.into().0);
        self
    }

    /// Makes `parent_fd` appear as `child_fd` in the child (0..=2 set stdin/stdout/stderr).
    /// Mappings may overlap and permute. A negative `child_fd` fails at spawn. The command
    /// owns the fd from now on and marks it close-on-exec at once (not at spawn), so it
    /// reaches a child only where it is mapped, even one another thread spawns meanwhile.
    ///
    /// ```
    /// use std::os::fd::OwnedFd;
    /// use spawnmatrix_spawn::Command;
    ///
    /// // The child writes to its fd 5, which is this file here.
    /// let path = std::env::temp_dir().join(format!("fd-doc-{}", std::process::id()));
    /// let file = std::fs::File::create(&path)?;
    /// let status = Command::new("sh")
    ///     .args(["-c", "echo via-fd-5 >&5"])
    ///     .fd(5, OwnedFd::from(file))
    ///     .status()?;
    /// assert!(status.success());
    /// assert_eq!(std::fs::read_to_string(&path)?, "via-fd-5\n");
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn fd(&mut self, child_fd: RawFd, parent_fd: impl Into<OwnedFd>) -> &mut Command {
        let fd = parent_fd.into();
        cloexec_at_handover(&fd);
        match usize::try_from(child_fd) {
            Ok(i @ 0..=2) => self.req.stdio[i] = Some(StdioKind::Fd(fd)),
            _ => {
                self.req.fds.insert(child_fd, fd);
            }
        }
        self
    }

    /// Whether the child starts a new session (`setsid`).
    ///
    /// ```
    /// use spawnmatrix_spawn::{Command, Stdio};
    ///
    /// // `cat` waits for its stdin to close, so the child is still there to be asked.
    /// let mut child = Command::new("cat").setsid(true).stdin(Stdio::piped()).spawn()?;
    /// let pid = child.id() as libc::pid_t;
    /// // SAFETY: getsid only reads the session id of our own child.
    /// assert_eq!(unsafe { libc::getsid(pid) }, pid, "the child leads its own session");
    /// drop(child.stdin.take());
    /// assert!(child.wait()?.success());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn setsid(&mut self, on: bool) -> &mut Command {
        self.req.setsid = on;
        self
    }

    /// Sets a resource limit in the child (`setrlimit`; on Linux `prlimit64`), after
    /// `setsid`/`setpgid` and before the id changes, so a root parent can still raise a hard
    /// limit. Any number may be given; they are set in order. Unlike a `pre_exec` closure
    /// doing the same, it keeps the `clone3`/`clone_vfork` path (resource limits are the
    /// child's own even when it shares the parent's memory); `posix_spawn` cannot express it.
    /// A limit the kernel refuses (soft above hard, an unknown resource, a raised hard limit
    /// without privilege) fails the spawn with the child's errno.
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// // No core dumps from the child (the fast path stays: no fork of a large parent).
    /// let out = Command::new("sh").args(["-c", "ulimit -c"]).rlimit(libc::RLIMIT_CORE, 0, 0).output()?;
    /// assert_eq!(out.stdout, b"0\n");
    /// let err = Command::new("true").rlimit(libc::RLIMIT_NOFILE, 10, 5).status().unwrap_err();
    /// assert_eq!(err.raw_os_error(), Some(libc::EINVAL));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn rlimit<R: TryInto<libc::c_int>>(
        &mut self,
        resource: R,
        soft: libc::rlim_t,
        hard: libc::rlim_t,
    ) -> &mut Command {
        // A number no resource has: the kernel answers EINVAL, as for any unknown resource.
        let resource = resource.try_into().unwrap_or(-1);
        self.req.rlimits.push(Rlimit::new(resource, soft, hard));
        self
    }

    /// Sets the child's umask, right after its resource limits. The parent's umask is
    /// untouched: the child has its own fs state (no `CLONE_FS`). `posix_spawn` cannot
    /// express it.
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let out = Command::new("sh").args(["-c", "umask"]).umask(0o077).output()?;
    /// assert_eq!(out.stdout, b"0077\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn umask(&mut self, mask: libc::mode_t) -> &mut Command {
        self.req.umask = Some(mask);
        self
    }

    /// The child's signal mask: exactly these signals blocked. Signal numbers the platform does
    /// not know fail the spawn with `InvalidInput`.
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let status = Command::new("true").signal_mask(&[libc::SIGUSR1]).status()?;
    /// assert!(status.success());
    /// let err = Command::new("true").signal_mask(&[100_000]).status().unwrap_err();
    /// assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn signal_mask(&mut self, signals: &[libc::c_int]) -> &mut Command {
        self.req.mask = Mask::Signals(signals.to_vec());
        self
    }

    /// The child's signal mask, as a ready set.
    pub fn signal_mask_set(&mut self, set: libc::sigset_t) -> &mut Command {
        self.req.mask = Mask::Set(set);
        self
    }

    /// Signals whose disposition is reset to `SIG_DFL` in the child even if ignored now
    /// (`SIGPIPE` always is).
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// // Even if this process ignores SIGINT, the child starts with the default action.
    /// let status = Command::new("true").reset_signals(&[libc::SIGINT]).status()?;
    /// assert!(status.success());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn reset_signals(&mut self, signals: &[libc::c_int]) -> &mut Command {
        self.req.reset_signals = signals.to_vec();
        self
    }

    /// Whether the child closes every fd from 3 up that it was not handed with
    /// [`Command::fd`] (default off, as in std: fds without `FD_CLOEXEC` are inherited). Like
    /// CPython's `close_fds=True`; it protects children from fds other code in the process
    /// opened without close-on-exec. The `posix_spawn` strategy needs
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34, FreeBSD 14) for it.
    pub fn close_fds(&mut self, on: bool) -> &mut Command {
        self.req.close_fds = on;
        self
    }

    /// Whether the child's exit fd ([`Child::exit_fd`]) is taken at spawn, in the same step
    /// that creates the child (see `create_pidfd` for how), so it refers to the child even if
    /// something reaps it at once (`SIGCHLD` ignored). Default off: then `exit_fd` opens it
    /// when first asked. Where it cannot be taken race-free, the spawn succeeds and `exit_fd`
    /// is the error.
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let mut child = Command::new("true").exit_fd(true).spawn()?;
    /// if cfg!(target_os = "linux") {
    ///     assert!(child.exit_fd().is_ok());
    /// }
    /// assert!(child.wait()?.success());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn exit_fd(&mut self, at_spawn: bool) -> &mut Command {
        self.req.exit_fd = at_spawn;
        self
    }

    /// How the child is created (default [`Strategy::Auto`]). A forced strategy this process
    /// cannot use, or that cannot express the request, is an `ErrorKind::Unsupported` error.
    ///
    /// ```
    /// use spawnmatrix_spawn::{Command, Strategy};
    ///
    /// let mut child = Command::new("true").strategy(Strategy::Fork).spawn()?;
    /// assert_eq!(child.strategy(), Strategy::Fork);
    /// assert!(child.wait()?.success());
    ///
    /// // Vfork is never offered (see `Strategy::Vfork`).
    /// let err = Command::new("true").strategy(Strategy::Vfork).spawn().unwrap_err();
    /// assert_eq!(err.kind(), std::io::ErrorKind::Unsupported);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn strategy(&mut self, s: Strategy) -> &mut Command {
        self.req.strategy = s;
        self
    }

    /// The program, as given.
    pub fn get_program(&self) -> &OsStr {
        &self.req.program
    }

    /// The arguments after the program (`argv[0]` is not among them).
    pub fn get_args(&self) -> CommandArgs<'_> {
        CommandArgs::new(self.req.argv.get(1..).unwrap_or_default())
    }

    /// The environment changes made with `env`, `envs` and `env_remove`, sorted by key
    /// (`None`: removed). `env_clear` is not among them, as in std.
    pub fn get_envs(&self) -> CommandEnvs<'_> {
        CommandEnvs::new(&self.req.env.vars)
    }

    /// The working directory set with `current_dir` (`None` if unset or set as an fd).
    pub fn get_current_dir(&self) -> Option<&Path> {
        match &self.req.cwd {
            Some(Cwd::Path(p)) => Some(p),
            _ => None,
        }
    }

    /// Starts the child; unset stdio is inherited.
    pub fn spawn(&mut self) -> io::Result<Child> {
        self.spawn_with(Defaults::Inherit)
    }

    /// Runs the child to completion with stdout and stderr captured (stdin `/dev/null`
    /// unless set).
    pub fn output(&mut self) -> io::Result<Output> {
        self.spawn_with(Defaults::Output)?.wait_with_output()
    }

    /// Spawns the child (unset stdio inherited) and lets it go: nothing waits for it, and
    /// it leaves no zombie behind. Returns its pid, which is its own only while it runs
    /// (once it has exited, the pid may be another process's).
    ///
    /// Where clone3 takes `CLONE_AUTOREAP` (Linux 7.1; learned once with a clone3 call that
    /// creates nothing), the `Clone3` strategy (and `Auto` when it picks clone3) creates the
    /// child with it and no exit signal: the kernel reaps it when it exits, with no thread,
    /// fd or `SIGCHLD` in this process. Otherwise (other strategies, older kernels, other
    /// platforms, and with [`exit_fd`](Self::exit_fd) or `create_pidfd`) the `Child` is
    /// handed to this crate's reaper thread, as a dropped
    /// [`kill_on_drop`](Self::kill_on_drop) child is: it is reaped moments after it exits
    /// while this process runs (a zombie for those moments), `SIGCHLD` still arrives, the
    /// reaper holds an fd for it (its pidfd on Linux) until then, and a `waitpid(-1)`
    /// elsewhere in this process may take its status first. Once this process has ended,
    /// the child's new parent (init, or a subreaper) reaps it either way.
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let pid = Command::new("true").spawn_detached()?;
    /// assert!(pid > 0);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn spawn_detached(&mut self) -> io::Result<u32> {
        self.req.autoreap = true;
        let spawned = self.spawn_with(Defaults::Inherit);
        self.req.autoreap = false;
        let mut child = spawned?;
        let pid = child.id();
        // An autoreaped child needs nothing; any other goes to the reaper on the drop.
        child.reap_on_drop(true);
        drop(child);
        Ok(pid)
    }

    /// Runs the child to completion with unset stdio inherited.
    pub fn status(&mut self) -> io::Result<ExitStatus> {
        self.spawn_with(Defaults::Inherit)?.wait()
    }

    /// Spawns as [`output`](Self::output) does (stdout and stderr piped, stdin `/dev/null`,
    /// unless set), for the event-loop adapters' `output`.
    #[cfg_attr(not(any(feature = "tokio", feature = "async-io")), allow(dead_code))]
    pub(crate) fn spawn_for_output(&mut self) -> io::Result<Child> {
        self.spawn_with(Defaults::Output)
    }

    fn spawn_with(&mut self, defaults: Defaults) -> io::Result<Child> {
        let _errno = crate::platform::errno::KeepErrno::new();
        // Each attempt is prepared afresh (new pipes, a fresh fd plan), so a retry after
        // `ETXTBSY` starts from nothing a failed attempt changed.
        let (spawned, used, parent_ends) = super::retry::spawn(self.req.retry_etxtbsy, || {
            let (mut prepared, parent_ends) = Prepared::new(&self.req, defaults)?;
            prepared.set_pre_exec(&mut self.req.pre_exec);
            let (spawned, used) = crate::strategies::spawn(self.req.strategy, &mut prepared)?;
            Ok((spawned, used, parent_ends))
        })?;
        let mut child = Child::new(
            spawned.pid,
            used,
            parent_ends,
            spawned.pidfd,
            self.req.create_pidfd,
        );
        let kill_on_drop = self.req.kill_on_drop || self.req.kill_on_parent_death;
        child.set_lifecycle(kill_on_drop, self.leads_own_group());
        if spawned.autoreaped {
            child.set_autoreaped();
        }
        Ok(child)
    }
}
