//! The `fork+exec` reference executor: a plain `fork()`, then the attributes and the file
//! actions applied one by one with the POSIX.1-2024 meaning of each, then `execve`. Errors come
//! back through a close-on-exec pipe, so the reference *returns* them like glibc and musl do.
//!
//! Add-time checks follow the POSIX ERRORS sections: `EBADF` for a negative fd, and for an fd
//! at or above `{OPEN_MAX}` (here `sysconf(_SC_OPEN_MAX)`) in open, close, dup2 and closefrom.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use super::command::{sigset, ChildCommand};
use super::fixture::Fixture;
use super::model::{Action, Sequence, CREATE_MODE};
use super::outcome::Outcome;
use super::rawspawn::{open_flags, pgroup_id};
use super::sys;
use crate::sys::check_rc;

/// One action with its path already a C string (the child must not allocate).
enum Step {
    Open { fd: i32, path: CString, flags: i32 },
    Close { fd: i32 },
    Dup2 { from: i32, to: i32 },
    Chdir { path: CString },
    Fchdir { fd: i32 },
    Closefrom { low: i32 },
}

/// Everything the child needs, prepared in the parent.
struct Plan {
    steps: Vec<Step>,
    setsid: bool,
    pgroup: Option<libc::pid_t>,
    sigdefault: Vec<i32>,
    sigmask: Option<libc::sigset_t>,
    open_max: i32,
    /// One above the highest fd the child can hold: closefrom stops here rather than at
    /// `{OPEN_MAX}` (20,000 `close` calls per closefrom where the limit is high). Set in
    /// [`spawn`] once the error pipe exists.
    close_bound: i32,
}

fn open_max() -> i32 {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) };
    if n <= 0 || n > i32::MAX as libc::c_long {
        i32::MAX
    } else {
        n as i32
    }
}

/// Why the reference refuses an action when it is added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A negative fd.
    Negative,
    /// An fd at or above `{OPEN_MAX}`.
    AboveOpenMax,
}

/// The POSIX add-time check for one fd argument (`upper`: whether `{OPEN_MAX}` applies).
fn add_check(fd: i32, upper: bool, open_max: i32) -> Option<Refusal> {
    if fd < 0 {
        Some(Refusal::Negative)
    } else if upper && fd >= open_max {
        Some(Refusal::AboveOpenMax)
    } else {
        None
    }
}

/// The fd arguments of an action, each with whether the `{OPEN_MAX}` bound applies to it.
fn fd_args(action: &Action) -> Vec<(i32, bool)> {
    match action {
        Action::Open { fd, .. } | Action::Close { fd } => vec![(*fd, true)],
        Action::Dup2 { from, to } => vec![(*from, true), (*to, true)],
        Action::Chdir { .. } => Vec::new(),
        // POSIX.1-2024 lists only "negative" for addfchdir.
        Action::Fchdir { fd } => vec![(*fd, false)],
        Action::Closefrom { low } => vec![(*low, true)],
    }
}

/// The first action the reference refuses at add time, its index and why.
pub fn first_refusal(seq: &Sequence) -> Option<(usize, Action, Refusal)> {
    let open_max = open_max();
    seq.actions.iter().enumerate().find_map(|(i, a)| {
        fd_args(a)
            .into_iter()
            .find_map(|(fd, upper)| add_check(fd, upper, open_max))
            .map(|r| (i, a.clone(), r))
    })
}

fn plan(seq: &Sequence, fx: &Fixture) -> io::Result<Result<Plan, Outcome>> {
    if first_refusal(seq).is_some() {
        return Ok(Err(Outcome::add(libc::EBADF)));
    }
    let mut steps = Vec::with_capacity(seq.actions.len());
    for action in &seq.actions {
        steps.push(match action {
            Action::Open {
                fd,
                path,
                mode,
                cloexec,
            } => Step::Open {
                fd: *fd,
                path: fx.resolve_c(path)?,
                flags: open_flags(*mode, *cloexec),
            },
            Action::Close { fd } => Step::Close { fd: *fd },
            Action::Dup2 { from, to } => Step::Dup2 {
                from: *from,
                to: *to,
            },
            Action::Chdir { path } => Step::Chdir {
                path: fx.resolve_c(path)?,
            },
            Action::Fchdir { fd } => Step::Fchdir { fd: *fd },
            Action::Closefrom { low } => Step::Closefrom { low: *low },
        });
    }
    let attrs = &seq.attrs;
    Ok(Ok(Plan {
        steps,
        setsid: attrs.setsid,
        pgroup: attrs.pgroup.map(pgroup_id),
        sigdefault: attrs
            .sigdefault
            .iter()
            .flatten()
            .map(|s| s.number())
            .collect(),
        sigmask: attrs.sigmask.as_deref().map(sigset).transpose()?,
        open_max: open_max(),
        close_bound: 0,
    }))
}

/// Reports `errno` through the pipe and exits; async-signal-safe.
fn fail(err_fd: i32, errno: i32) -> ! {
    let bytes = errno.to_ne_bytes();
    // SAFETY: write and _exit are async-signal-safe; the buffer lives on this stack.
    unsafe {
        libc::write(err_fd, bytes.as_ptr().cast(), bytes.len());
        libc::_exit(127)
    }
}

fn errno() -> i32 {
    io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// One action in the child. Only async-signal-safe calls; no allocation.
///
/// # Safety
/// Must run in the forked child only.
unsafe fn apply(step: &Step, err_fd: i32, close_bound: i32) -> Result<(), i32> {
    match step {
        Step::Open { fd, path, flags } => {
            // "as if close(fildes) had been called" first; a close error is not an error.
            libc::close(*fd);
            let got = libc::open(path.as_ptr(), *flags, CREATE_MODE as libc::c_uint);
            if got < 0 {
                return Err(errno());
            }
            if got != *fd {
                if libc::dup2(got, *fd) < 0 {
                    return Err(errno());
                }
                libc::close(got);
            }
        }
        // Austin Group #370: closing an fd that is not open is not an error.
        Step::Close { fd } => {
            libc::close(*fd);
        }
        Step::Dup2 { from, to } if from == to => {
            // Austin Group #411: dup2(fd, fd) clears FD_CLOEXEC.
            let flags = libc::fcntl(*from, libc::F_GETFD);
            if flags < 0 || libc::fcntl(*from, libc::F_SETFD, flags & !libc::FD_CLOEXEC) < 0 {
                return Err(errno());
            }
        }
        Step::Dup2 { from, to } => {
            if libc::dup2(*from, *to) < 0 {
                return Err(errno());
            }
        }
        Step::Chdir { path } => {
            if libc::chdir(path.as_ptr()) < 0 {
                return Err(errno());
            }
        }
        Step::Fchdir { fd } => {
            if libc::fchdir(*fd) < 0 {
                return Err(errno());
            }
        }
        Step::Closefrom { low } => {
            for fd in *low..close_bound {
                if fd != err_fd {
                    libc::close(fd);
                }
            }
        }
    }
    Ok(())
}

/// The forked child: attributes, actions, mask, exec. Never returns.
///
/// # Safety
/// Must run in the forked child only, with every signal blocked.
unsafe fn child(plan: &Plan, cmd: &ChildCommand, pipe: [i32; 2], old_mask: &libc::sigset_t) -> ! {
    // The read end is the parent's; leaving it open would give actions an fd libcs don't have.
    let [read_fd, err_fd] = pipe;
    libc::close(read_fd);
    // Handlers do not survive exec; reset them while signals are blocked, so none runs here.
    for sig in 1..65 {
        let mut sa: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(sig, std::ptr::null(), &mut sa) == 0
            && sa.sa_sigaction != libc::SIG_DFL
            && sa.sa_sigaction != libc::SIG_IGN
        {
            sa.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
    if plan.setsid && libc::setsid() < 0 {
        fail(err_fd, errno());
    }
    if let Some(pg) = plan.pgroup {
        if libc::setpgid(0, pg) < 0 {
            fail(err_fd, errno());
        }
    }
    for sig in &plan.sigdefault {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = libc::SIG_DFL;
        if libc::sigaction(*sig, &sa, std::ptr::null_mut()) < 0 {
            fail(err_fd, errno());
        }
    }
    for step in &plan.steps {
        if let Err(e) = apply(step, err_fd, plan.close_bound) {
            fail(err_fd, e);
        }
    }
    let mask = plan.sigmask.as_ref().unwrap_or(old_mask);
    if libc::pthread_sigmask(libc::SIG_SETMASK, mask, std::ptr::null_mut()) != 0 {
        fail(err_fd, libc::EINVAL);
    }
    libc::execve(cmd.program().as_ptr(), cmd.argv(), cmd.envp());
    fail(err_fd, errno())
}

/// The error pipe, its write end moved high so that no action's fd number collides with it.
fn error_pipe(open_max: i32) -> io::Result<(OwnedFd, OwnedFd)> {
    let (r, w) = sys::pipe_cloexec()?;
    let min = (open_max.min(4096) - 8).max(100);
    // SAFETY: F_DUPFD_CLOEXEC returns a new fd we then own.
    let high = unsafe { libc::fcntl(w.as_raw_fd(), libc::F_DUPFD_CLOEXEC, min) };
    if high < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: high is a fresh fd.
    Ok((r, unsafe { OwnedFd::from_raw_fd(high) }))
}

/// Forks and runs the sequence; returns the child's pid once it has exec'd, or the outcome
/// that ended the attempt (the failed child is already reaped then).
pub fn spawn(
    seq: &Sequence,
    fx: &Fixture,
    cmd: &ChildCommand,
) -> io::Result<Result<libc::pid_t, Outcome>> {
    let mut plan = match plan(seq, fx)? {
        Ok(p) => p,
        Err(o) => return Ok(Err(o)),
    };
    let (read_end, write_end) = error_pipe(plan.open_max)?;
    // Every fd the child holds was open here at the fork or is named by an action (an open
    // lands on the lowest free fd, then moves to its named one).
    let highest_named = seq.actions.iter().flat_map(fd_args).map(|(fd, _)| fd).max();
    let highest_open = sys::open_fds().last().copied();
    plan.close_bound = highest_open
        .max(highest_named)
        .unwrap_or(0)
        .saturating_add(1);
    // SAFETY: the sets are initialised before use; fork's child only calls `child`, which is
    // async-signal-safe; the parent restores its mask right after fork.
    let pid = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        if libc::sigfillset(&mut all) != 0 {
            return Err(io::Error::last_os_error());
        }
        check_rc(libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old))?;
        let pid = libc::fork();
        if pid == 0 {
            child(
                &plan,
                cmd,
                [read_end.as_raw_fd(), write_end.as_raw_fd()],
                &old,
            );
        }
        let fork_errno = errno();
        check_rc(libc::pthread_sigmask(
            libc::SIG_SETMASK,
            &old,
            std::ptr::null_mut(),
        ))?;
        if pid < 0 {
            return Ok(Err(Outcome::returned(fork_errno)));
        }
        pid
    };
    drop(write_end);
    let mut buf = [0u8; 4];
    let got = read_full(&read_end, &mut buf)?;
    if got == buf.len() {
        super::reap(pid)?;
        return Ok(Err(Outcome::returned(i32::from_ne_bytes(buf))));
    }
    Ok(Ok(pid))
}

/// Reads until `buf` is full or end of file; returns how many bytes arrived.
fn read_full(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        // SAFETY: the destination range is inside buf.
        let n = unsafe {
            libc::read(
                fd.as_raw_fd(),
                buf[got..].as_mut_ptr().cast(),
                buf.len() - got,
            )
        };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if n == 0 {
            break;
        }
        got += n as usize;
    }
    Ok(got)
}
