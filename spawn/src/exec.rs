//! `CommandExt::exec`: the child's preparation and `execve` run in this process itself.
//!
//! As with std, a failed exec leaves what was done before it in place (stdio, working
//! directory, ids, closed fds, `SIGPIPE` at its default). Caught signals are not reset first:
//! `execve` resets them, and a failure must not lose the process's handlers. The
//! environment is passed to `execve` directly, so `environ` is never touched.

use std::io;
use std::mem::MaybeUninit;

use super::command::{Command, Defaults};
use super::error::check_rc;
use super::exec_child;
use super::plan::Prepared;

/// Replaces this process with `cmd`; returns the error if that failed.
pub(super) fn exec(cmd: &mut Command) -> io::Error {
    match try_exec(cmd) {
        Ok(never) => match never {},
        Err(e) => e,
    }
}

fn try_exec(cmd: &mut Command) -> io::Result<std::convert::Infallible> {
    let (mut p, _parent_ends) = Prepared::new(cmd, Defaults::Inherit)?;
    p.set_pre_exec(&mut cmd.pre_exec);
    let current = thread_mask()?;
    let mask = p.mask.unwrap_or(current);
    let view = p.view(&mask, false);
    // SAFETY: the view points into `p` and `mask`, alive until `run` returns (it returns
    // only on failure; on success this process is replaced).
    let errno = unsafe { exec_child::run(&view) };
    Err(io::Error::from_raw_os_error(errno))
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
