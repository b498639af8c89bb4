//! What the child runs between its creation and `execve`, for every strategy that creates the
//! child itself (clone3, clone_vfork, fork).
//!
//! This code may run on a private stack in a process that shares the parent's memory
//! (`CLONE_VM`), or in a fork of a multi-threaded parent. So it only makes async-signal-safe
//! calls, reads data the parent prepared, allocates nothing, takes no lock, formats nothing,
//! and cannot panic: no indexing, no `unwrap`, no arithmetic that can overflow.

//!
//! Everything here runs in the child, and nothing else does: the parent prepares the
//! [`ChildView`] (`plan/`), a strategy creates the child and calls [`run`] (`strategies/`).
//! `tests/architecture.rs` checks that no file here names an allocating, locking or
//! panicking API.

use std::ffi::c_char;
use std::os::fd::RawFd;

use crate::platform;
use crate::request::{Ids, PreExec, Rlimit};
use calls as sys;
use ids::IdCalls;
use search::{Next, SearchState};

pub(crate) mod calls;
pub(crate) mod close_fds;
pub(crate) mod fork_entry;
pub(crate) mod ids;
#[cfg(target_os = "linux")]
pub(crate) mod pidfd_send;
/// No pidfds here: a forked child is never asked to send one.
#[cfg(not(target_os = "linux"))]
pub(crate) mod pidfd_send {
    /// Never called (see the module note).
    ///
    /// # Safety
    /// None needed.
    pub(crate) unsafe fn send_own(_: std::os::fd::RawFd) {}
}
pub(crate) mod search;
#[cfg(target_os = "linux")]
pub(crate) mod vm_entry;

/// One mapping. `tmp` is filled in by whoever executes the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FdMove {
    pub src: RawFd,
    pub dst: RawFd,
    /// Whether `src` must be copied above `high` first.
    pub via_tmp: bool,
    /// The fd `dst` is `dup2`'d from: the copy if `via_tmp`, else `src`.
    pub tmp: RawFd,
}


/// Where the child changes directory to, if anywhere.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ChildCwd {
    Keep,
    Path(*const c_char),
    Fd(libc::c_int),
}

/// Everything the child needs, as raw pointers into data the parent owns and keeps alive
/// until the child has exec'd or exited.
pub(crate) struct ChildView {
    pub candidates: *const *const c_char,
    pub candidates_len: usize,
    pub argv: *const *const c_char,
    pub envp: *const *const c_char,
    pub cwd: ChildCwd,
    pub setsid: bool,
    /// The controlling terminal to take right after `setsid`.
    pub ctty: Option<libc::c_int>,
    pub pgid: Option<libc::pid_t>,
    /// The terminal whose foreground group becomes the child's, after `setpgid`.
    pub foreground: Option<libc::c_int>,
    pub rlimits: *const Rlimit,
    pub rlimits_len: usize,
    pub umask: Option<libc::mode_t>,
    /// The parent-death signal and the parent's pid, taken before the spawn.
    pub pdeathsig: Option<(libc::c_int, libc::pid_t)>,
    /// Whether the child sets `no_new_privs` itself (false when the clone call did).
    pub no_new_privs: bool,
    /// The fd plan; the child writes each move's `tmp`.
    pub moves: *mut FdMove,
    pub moves_len: usize,
    pub high: libc::c_int,
    /// Signals set to `SIG_DFL` (SIGPIPE and the requested ones).
    pub default_signals: *const libc::c_int,
    pub default_signals_len: usize,
    /// Whether caught signals must be reset here (not needed after `CLONE_CLEAR_SIGHAND`).
    pub reset_handlers: bool,
    /// The child's signal mask.
    pub mask: *const libc::sigset_t,
    /// Fds kept when the others are closed (sorted), and the fallback loop's limit; `None`:
    /// close nothing.
    pub close_keep: *const libc::c_int,
    pub close_keep_len: usize,
    pub close_limit: Option<libc::c_int>,
    /// The ids to take.
    pub ids: *const Ids,
    /// Closures to run last (non-empty only in a forked child).
    pub pre_exec: *mut PreExec,
    pub pre_exec_len: usize,
}

/// Prepares the child and execs. Returns only on failure, with the errno to report.
///
/// `C` changes the ids: [`ids::ChildIds`] in a spawned child (always a fork when there are
/// ids), [`ids::ProcessIds`] for `CommandExt::exec`.
///
/// # Safety
/// Every pointer in `v` must be valid for its length, and the caller must be the new child
/// (or, for `exec`, the process about to be replaced).
pub(crate) unsafe fn run<C: IdCalls>(v: &ChildView) -> libc::c_int {
    if v.setsid {
        let e = sys::setsid();
        if e != 0 {
            return e;
        }
    }
    if let Some(tty) = v.ctty {
        let e = sys::set_controlling_terminal(tty);
        if e != 0 {
            return e;
        }
    }
    if let Some(pgid) = v.pgid {
        let e = sys::setpgid(pgid);
        if e != 0 {
            return e;
        }
    }
    if let Some(tty) = v.foreground {
        let e = sys::foreground_own_group(tty);
        if e != 0 {
            return e;
        }
    }
    for r in slice(v.rlimits, v.rlimits_len) {
        let e = sys::set_rlimit(r);
        if e != 0 {
            return e;
        }
    }
    if let Some(mask) = v.umask {
        sys::umask(mask);
    }
    if let Some(ids) = v.ids.as_ref() {
        let e = ids::apply::<C>(ids);
        if e != 0 {
            return e;
        }
    }
    if let Some((sig, parent)) = v.pdeathsig {
        let e = sys::set_parent_death_signal(sig, parent);
        if e != 0 {
            return e;
        }
    }
    if v.no_new_privs {
        let e = sys::set_no_new_privs();
        if e != 0 {
            return e;
        }
    }
    let e = match v.cwd {
        ChildCwd::Keep => 0,
        ChildCwd::Path(p) => sys::chdir(p),
        ChildCwd::Fd(fd) => sys::fchdir(fd),
    };
    if e != 0 {
        return e;
    }
    let moves = slice_mut(v.moves, v.moves_len);
    for m in moves.iter_mut() {
        if m.via_tmp {
            match sys::dup_cloexec_above(m.src, v.high) {
                Ok(fd) => m.tmp = fd,
                // EINVAL here means `high` is past the fd limit because a target is: the
                // error `dup2` (and posix_spawn's adddup2) gives for such a target.
                Err(libc::EINVAL) => return libc::EBADF,
                Err(e) => return e,
            }
        }
    }
    for m in moves.iter() {
        let e = sys::dup2(m.tmp, m.dst);
        if e != 0 {
            return e;
        }
    }
    if v.reset_handlers {
        let e = reset_caught_signals();
        if e != 0 {
            return e;
        }
    }
    for &sig in slice(v.default_signals, v.default_signals_len) {
        let e = platform::set_default(sig);
        if e != 0 {
            return e;
        }
    }
    let e = platform::set_mask(v.mask);
    if e != 0 {
        return e;
    }
    for f in slice_mut(v.pre_exec, v.pre_exec_len) {
        let e = run_pre_exec(f);
        if e != 0 {
            return e;
        }
    }
    if let Some(limit) = v.close_limit {
        close_fds::close_others(slice(v.close_keep, v.close_keep_len), limit);
    }
    let mut search = SearchState::new();
    for &path in slice(v.candidates, v.candidates_len) {
        let e = sys::execve(path, v.argv, v.envp);
        if let Next::Stop(e) = search.after(e) {
            return e;
        }
    }
    search.result()
}

/// Runs one `pre_exec` closure (only ever in a forked child): 0, or its error's errno
/// (`EINVAL` if it has none, as std). A panic aborts the child, as in std, rather than
/// unwinding into the copy of the parent's frames.
unsafe fn run_pre_exec(f: &mut PreExec) -> libc::c_int {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => e.raw_os_error().unwrap_or(libc::EINVAL),
        Err(_) => libc::abort(),
    }
}

/// Sets every caught signal to `SIG_DFL`, so no parent handler can run in the child once the
/// mask is lifted. Ignored signals stay ignored. Returns 0 or an errno.
unsafe fn reset_caught_signals() -> libc::c_int {
    for sig in 1..platform::NSIG {
        // A number that cannot be queried (one a libc reserves) has no user handler.
        if platform::has_handler(sig) == Some(true) {
            let e = platform::set_default(sig);
            if e != 0 {
                return e;
            }
        }
    }
    0
}

/// A slice from a parent-prepared pointer and length (an empty slice for a null pointer).
unsafe fn slice<'a, T>(p: *const T, len: usize) -> &'a [T] {
    if p.is_null() {
        &[]
    } else {
        std::slice::from_raw_parts(p, len)
    }
}

/// As [`slice`], mutable.
unsafe fn slice_mut<'a, T>(p: *mut T, len: usize) -> &'a mut [T] {
    if p.is_null() {
        &mut []
    } else {
        std::slice::from_raw_parts_mut(p, len)
    }
}
