//! The parent's side of a `CLONE_VM` spawn, shared by the clone strategies: block signals,
//! clone on the private stack, restore, read what the child wrote, reap on failure. The
//! child's side is `child_side/vm_entry.rs`.
//!
//! The child reports through memory it shares with the parent, so that memory must really be
//! shared. Valgrind and qemu-user turn `CLONE_VM|CLONE_VFORK` into a plain fork: the child
//! then writes into its own copy, and a failed exec would come back as a child exiting 127.
//! So every child first writes a sentinel the parent must see: the probe (run once per
//! strategy before its first spawn) refuses the strategy when its child's sentinel never
//! arrives, and a spawn that misses it (which the probe makes impossible short of the
//! environment changing under a running process) is an error, never a success.

use std::ffi::c_void;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::ptr;

use super::stack::{with_stack, Stack};
use crate::child_side::vm_entry::{Shared, SENTINEL};
use crate::plan::Prepared;
use crate::platform::wait::{abandon, reap_failed, wait_pid};
use crate::strategies::learned::{Learned, Verdict};
use crate::strategies::Spawned;
use crate::plan::sigs::BlockAll;

/// Creates a child on this thread's stack with `start(stack, arg, pidfd)`, which returns the
/// pid or the errno of the clone call itself; `pidfd` is null, or where the call must have the
/// kernel store the child's pidfd (`CLONE_PIDFD`; it stays -1 on a kernel that ignores the
/// flag). The outer error is a setup failure or the child's reported errno (the child
/// reaped); the inner error is the clone call's errno. A child whose memory turned out not to
/// be shared teaches `learned` that the strategy is refused here.
pub(crate) fn spawn(
    p: &mut Prepared,
    reset_handlers: bool,
    learned: &Learned,
    start: impl FnOnce(&Stack, *mut c_void, *mut libc::c_int) -> Result<libc::pid_t, libc::c_int>,
) -> io::Result<Result<Spawned, libc::c_int>> {
    // `strategies::spawn` sends these to `fork`; this is the last line of defence for the parent's mm.
    if let Some(what) = p.needs_fork() {
        return Err(io::Error::new(io::ErrorKind::Unsupported, what));
    }
    let block = BlockAll::new()?;
    let mask = p.mask.as_ref().unwrap_or(block.old()) as *const libc::sigset_t;
    let mut shared = Shared {
        started: 0,
        view: p.view(mask, reset_handlers),
        err: 0,
    };
    let mut raw_pidfd: libc::c_int = -1;
    let pidfd_out = match p.want_pidfd {
        true => ptr::addr_of_mut!(raw_pidfd),
        false => ptr::null_mut(),
    };
    let arg = ptr::addr_of_mut!(shared).cast::<c_void>();
    let started = with_stack(|stack| start(stack, arg, pidfd_out));
    let restored = block.restore();
    let pid = match started? {
        Ok(pid) => pid,
        Err(errno) => return restored.map(|()| Err(errno)),
    };
    // Owned at once, so every failure below closes it.
    let pidfd = p.want_pidfd.then(|| owned_pidfd(raw_pidfd));
    // SAFETY: the child has exec'd or exited (CLONE_VFORK), so nothing writes `shared` now.
    let (mark, err) = unsafe {
        (
            ptr::read_volatile(ptr::addr_of!(shared.started)),
            ptr::read_volatile(ptr::addr_of!(shared.err)),
        )
    };
    if mark != SENTINEL {
        learned.record(Verdict::Refused);
        return Err(abandon(pid, io::Error::other(NOT_SHARED)));
    }
    if err != 0 {
        return Err(reap_failed(pid, err));
    }
    match restored {
        Ok(()) => Ok(Ok(Spawned { pid, pidfd, autoreaped: false })),
        // The child runs, but this thread's mask is wrong: report that, leaving no child.
        Err(e) => Err(abandon(pid, e)),
    }
}

const NOT_SHARED: &str =
    "the CLONE_VM child did not share this process's memory (vfork emulated as fork)";

/// The pidfd `CLONE_PIDFD` stored, or why there is none (kernels before 5.2 ignore the flag).
fn owned_pidfd(raw: libc::c_int) -> io::Result<OwnedFd> {
    if raw < 0 {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "the kernel ignored CLONE_PIDFD (Linux 5.2+)",
        ));
    }
    // SAFETY: a new fd the kernel made for this call, owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(raw) })
}

/// A probe: `start(stack, arg)` creates a child that runs [`probe_main`] with `arg` (signals
/// blocked meanwhile); it is reaped, the clone call's errno, if any, is judged by `verdict`,
/// and a child whose sentinel never reached this process refuses the strategy.
pub(crate) fn probe(
    start: impl FnOnce(&Stack, *mut c_void) -> Result<libc::pid_t, libc::c_int>,
    verdict: fn(libc::c_int) -> Verdict,
) -> Verdict {
    let Ok(block) = BlockAll::new() else {
        return Verdict::Inconclusive;
    };
    let mut mark: libc::c_int = 0;
    let arg = ptr::addr_of_mut!(mark).cast::<c_void>();
    let r = with_stack(|stack| start(stack, arg));
    let _ = block.restore();
    let pid = match r {
        Ok(Ok(pid)) => pid,
        Ok(Err(errno)) => return verdict(errno),
        Err(_) => return Verdict::Inconclusive,
    };
    // ECHILD: the kernel reaped it (SIGCHLD ignored); either way it has ended.
    let ended = match wait_pid(pid, 0) {
        Ok(_) => true,
        Err(e) => e.raw_os_error() == Some(libc::ECHILD),
    };
    // SAFETY: the child has ended (or, sharing memory, wrote before clone returned).
    match (unsafe { ptr::read_volatile(ptr::addr_of!(mark)) }, ended) {
        (SENTINEL, _) => Verdict::Works,
        (_, true) => Verdict::Refused,
        (_, false) => Verdict::Inconclusive,
    }
}
