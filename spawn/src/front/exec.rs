//! `CommandExt::exec`: the child's preparation and `execve` run in this process itself.
//!
//! It is a safe function in a process whose other fds belong to other code, so it touches
//! no fd but the stdio it was given (0, 1, 2, which std's `exec` replaces too), and a
//! failure puts those back: every replaced stdio fd is the file it was before, with its
//! close-on-exec flag, one that was closed is closed again, and every temporary copy is
//! closed. A mapping onto any other fd ([`Command::fd`](crate::Command::fd) from 3 up) or
//! [`Command::close_fds`](crate::Command::close_fds) is refused with `Unsupported`: either
//! would replace or close fds that other code in this process may own.
//!
//! The rest of the process a failure puts back too, as far as it can be
//! (`exec_restore.rs`): the working directory, umask, limits, process group, foreground
//! group, parent-death signal, the dispositions reset and the signal mask. It cannot undo a
//! new session (and its controlling terminal), the ids (changed with libc's process-wide
//! calls, so every thread has them, as in std), nor a hard limit lowered without the
//! privilege to raise it again. Caught signals are not reset first: `execve` resets them,
//! and a failure must not lose the process's handlers. The environment is passed to
//! `execve` directly, so `environ` is never touched.

use std::convert::Infallible;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::RawFd;

use super::command::Command;
use super::exec_restore::Saved;
use crate::request::Defaults;
use crate::platform::errno::{check, check_rc};
use crate::child_side;
use crate::plan::fdplan::FdPlan;
use crate::child_side::ids::ProcessIds;
use crate::plan::Prepared;

/// Replaces this process with `cmd`; returns the error if that failed.
pub(crate) fn exec(cmd: &mut Command) -> io::Error {
    match try_exec(cmd) {
        Ok(never) => match never {},
        Err(e) => e,
    }
}

fn try_exec(cmd: &mut Command) -> io::Result<Infallible> {
    let (mut p, _parent_ends) = Prepared::new(&cmd.req, Defaults::Inherit)?;
    only_stdio(&p)?;
    if let Some(what) = p.platform_cannot() {
        return Err(io::Error::new(io::ErrorKind::Unsupported, what));
    }
    if p.kill_on_parent_death.is_some() {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "exec cannot kill on parent death: it makes no child (parent_death_signal can)",
        ));
    }
    if p.no_new_privs {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "exec cannot set no_new_privs: it cannot be cleared again if the exec fails",
        ));
    }
    if p.cgroup.is_some() {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "exec cannot start in a cgroup: CLONE_INTO_CGROUP places a new child only",
        ));
    }
    // This process sets its own parent-death signal: the parent whose death it watches is
    // this process's parent, not this process.
    if let Some((_, parent)) = &mut p.pdeathsig {
        // SAFETY: getppid cannot fail.
        *parent = unsafe { libc::getppid() };
    }
    p.set_pre_exec(&mut cmd.req.pre_exec);
    let current = thread_mask()?;
    let mask = p.mask.unwrap_or(current);
    let saved = SavedStdio::new(&p.fds)?;
    // Last before the steps: it sets the umask already, and nothing after it can fail.
    let state = Saved::new(&p, current);
    let view = p.view(&mask, false);
    // SAFETY: the view points into `p` and `mask`, alive until `run` returns (it returns
    // only on failure; on success this process is replaced).
    let errno = unsafe { child_side::run::<ProcessIds>(&view) };
    close_copies(&p.fds);
    state.restore();
    saved.restore()?;
    Err(io::Error::from_raw_os_error(errno))
}

/// Refuses what would touch an fd above stdio.
fn only_stdio(p: &Prepared) -> io::Result<()> {
    if let Some(m) = p.fds.moves.iter().find(|m| m.dst > 2) {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "exec maps only fds 0-2: a mapping onto fd {} could replace an fd other code in this process owns",
                m.dst
            ),
        ));
    }
    if p.close.is_some() {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "exec cannot close other fds: other code in this process may own them",
        ));
    }
    Ok(())
}

/// Closes the copies `run` made above every target (each move's `tmp` when `via_tmp`).
fn close_copies(fds: &FdPlan) {
    for m in &fds.moves {
        if m.via_tmp && m.tmp >= 0 && m.tmp != m.src {
            // SAFETY: a copy `run` made for this exec; nothing else knows its number.
            unsafe { libc::close(m.tmp) };
        }
    }
}

/// What each stdio target of the plan was before the exec: a close-on-exec copy of it and
/// its fd flags, or nothing if it was closed.
struct SavedStdio(Vec<(RawFd, Option<(RawFd, libc::c_int)>)>);

impl SavedStdio {
    fn new(fds: &FdPlan) -> io::Result<SavedStdio> {
        let mut saved = SavedStdio(Vec::new());
        for m in &fds.moves {
            // SAFETY: a query of an fd number (0-2, checked by `only_stdio`).
            let flags = unsafe { libc::fcntl(m.dst, libc::F_GETFD) };
            let copy = if flags == -1 {
                None
            } else {
                // SAFETY: a new close-on-exec copy of an open fd, owned by `saved`.
                let copy = check(unsafe { libc::fcntl(m.dst, libc::F_DUPFD_CLOEXEC, 3) })?;
                Some((copy, flags))
            };
            saved.0.push((m.dst, copy));
        }
        Ok(saved)
    }

    /// Puts every saved target back (and closes the copies).
    fn restore(mut self) -> io::Result<()> {
        let mut result = Ok(());
        for (dst, copy) in std::mem::take(&mut self.0) {
            let r = match copy {
                // SAFETY: `copy` is ours; `dst` is a stdio number this exec replaced.
                Some((copy, flags)) => unsafe {
                    let r = check(libc::dup2(copy, dst))
                        .and_then(|_| check(libc::fcntl(dst, libc::F_SETFD, flags)));
                    libc::close(copy);
                    r
                },
                // SAFETY: `dst` was closed before; if open now, this exec opened it.
                None => unsafe {
                    if libc::fcntl(dst, libc::F_GETFD) != -1 {
                        libc::close(dst);
                    }
                    Ok(0)
                },
            };
            result = result.and(r.map(drop));
        }
        result
    }
}

impl Drop for SavedStdio {
    /// Closes the copies if `restore` never ran (an error before the exec).
    fn drop(&mut self) {
        for (_, copy) in &self.0 {
            if let Some((copy, _)) = copy {
                // SAFETY: a copy this struct made and still owns.
                unsafe { libc::close(*copy) };
            }
        }
    }
}

/// The calling thread's signal mask.
fn thread_mask() -> io::Result<libc::sigset_t> {
    let mut set = MaybeUninit::<libc::sigset_t>::uninit();
    // SAFETY: a query: pthread_sigmask fills `set` when it returns 0.
    check_rc(unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, std::ptr::null(), set.as_mut_ptr())
    })?;
    // SAFETY: initialised just above.
    Ok(unsafe { set.assume_init() })
}
