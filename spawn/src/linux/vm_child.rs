//! What the clone strategies share: the child's entry point on its private stack, and the
//! parent's side (block signals, clone, restore, read the child's errno, reap on failure).

use std::ffi::c_void;
use std::io;
use std::ptr;

use super::stack::{with_stack, Stack};
use crate::child::wait_pid;
use crate::child::{abandon, reap_failed};
use crate::exec_child::{self, ChildView};
use crate::ids::ChildIds;
use crate::learned::Verdict;
use crate::plan::Prepared;
use crate::sigs::BlockAll;

/// What parent and child share: the child reads `view` and writes `err` (0 until it fails).
struct Shared {
    view: ChildView,
    err: libc::c_int,
}

/// The child's entry: prepare and exec, or store the errno and exit. Never returns, so it
/// never unwinds into the parent's frames.
///
/// # Safety
/// `arg` is a `*mut Shared` the suspended parent keeps alive.
pub(super) unsafe extern "C" fn child_main(arg: *mut c_void) -> ! {
    let shared = arg.cast::<Shared>();
    let e = exec_child::run::<ChildIds>(&(*shared).view);
    ptr::write_volatile(ptr::addr_of_mut!((*shared).err), e);
    crate::child_calls::exit(127)
}

/// Creates a child on this thread's stack with `start(stack, arg)`, which returns the pid or
/// the errno of the clone call itself. The outer error is a setup failure or the child's
/// reported errno (the child reaped); the inner error is the clone call's errno.
pub(super) fn spawn(
    p: &mut Prepared,
    reset_handlers: bool,
    start: impl FnOnce(&Stack, *mut c_void) -> Result<libc::pid_t, libc::c_int>,
) -> io::Result<Result<libc::pid_t, libc::c_int>> {
    // `dispatch` sends these to `fork`; this is the last line of defence for the parent's mm.
    if let Some(what) = p.needs_fork() {
        return Err(io::Error::new(io::ErrorKind::Unsupported, what));
    }
    let block = BlockAll::new()?;
    let mask = p.mask.as_ref().unwrap_or(block.old()) as *const libc::sigset_t;
    let mut shared = Shared {
        view: p.view(mask, reset_handlers),
        err: 0,
    };
    let arg = ptr::addr_of_mut!(shared).cast::<c_void>();
    let started = with_stack(|stack| start(stack, arg));
    let restored = block.restore();
    let pid = match started? {
        Ok(pid) => pid,
        Err(errno) => return restored.map(|()| Err(errno)),
    };
    // SAFETY: the child has exec'd or exited (CLONE_VFORK), so nothing writes `err` now.
    let err = unsafe { ptr::read_volatile(ptr::addr_of!(shared.err)) };
    if err != 0 {
        return Err(reap_failed(pid, err));
    }
    match restored {
        Ok(()) => Ok(Ok(pid)),
        // The child runs, but this thread's mask is wrong: report that, leaving no child.
        Err(e) => Err(abandon(pid, e)),
    }
}

/// A probe: `start` creates a child that exits at once (signals blocked meanwhile); it is
/// reaped, and the clone call's errno, if any, is judged by `verdict`.
pub(super) fn probe(
    start: impl FnOnce(&Stack) -> Result<libc::pid_t, libc::c_int>,
    verdict: fn(libc::c_int) -> Verdict,
) -> Verdict {
    let Ok(block) = BlockAll::new() else {
        return Verdict::Inconclusive;
    };
    let r = with_stack(start);
    let _ = block.restore();
    match r {
        Ok(Ok(pid)) if wait_pid(pid, 0).is_ok() => Verdict::Works,
        Ok(Err(errno)) => verdict(errno),
        _ => Verdict::Inconclusive,
    }
}
