//! `clone(CLONE_VM|CLONE_VFORK)`: the parent sleeps until the child execs or exits; the child
//! resets caught signals itself (one `rt_sigaction` query per signal). A seccomp filter may
//! refuse `CLONE_VM` (`EPERM`) or `clone` itself (`ENOSYS`): that is learned once (probed, or
//! from a real call) and remembered, so `Auto` goes on to the next strategy and a forced
//! `CloneVfork` is `Unsupported`.

use std::ffi::c_void;
use std::io;

use super::stack::Stack;
use super::vm_child::{self, child_main};
use crate::error::errno;
use crate::learned::{Learned, Verdict};
use crate::plan::Prepared;

const FLAGS: libc::c_int = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;

static LEARNED: Learned = Learned::new();

extern "C" fn entry(arg: *mut c_void) -> libc::c_int {
    // SAFETY: `arg` is what `vm_child::spawn` passed to clone.
    unsafe { child_main(arg) }
}

/// Whether `clone(CLONE_VM|CLONE_VFORK)` works here; probes once if not yet known.
pub(super) fn works() -> bool {
    LEARNED.works(probe)
}

/// Spawns with `clone(CLONE_VM|CLONE_VFORK)`; `Ok(None)` if it is refused here (now
/// remembered). The caller has checked that the strategy may run at all.
pub(crate) fn clone_vfork(p: &mut Prepared) -> io::Result<Option<libc::pid_t>> {
    if !LEARNED.maybe() {
        return Ok(None);
    }
    let r = vm_child::spawn(p, true, |stack, arg| call(stack, entry, arg))?;
    LEARNED.outcome(r, verdict)
}

/// One clone call on `stack`: the pid, or the errno of the call itself.
fn call(
    stack: &Stack,
    entry: extern "C" fn(*mut c_void) -> libc::c_int,
    arg: *mut c_void,
) -> Result<libc::pid_t, libc::c_int> {
    // SAFETY: a private stack, an entry that never returns, and `arg` alive throughout.
    match unsafe { libc::clone(entry, stack.top(), FLAGS, arg) } {
        -1 => Err(errno()),
        pid => Ok(pid),
    }
}

/// `ENOSYS` and `EPERM` from the clone call itself refuse it; anything else (`EAGAIN`,
/// `ENOMEM`) is the spawn's error.
fn verdict(errno: libc::c_int) -> Verdict {
    match errno {
        libc::ENOSYS | libc::EPERM => Verdict::Refused,
        _ => Verdict::Inconclusive,
    }
}

/// The probe child: exits at once.
extern "C" fn exit_now(_: *mut c_void) -> libc::c_int {
    // SAFETY: ends the child.
    unsafe { crate::child_calls::exit(0) }
}

/// Finds out whether the call works by cloning a child that exits at once.
fn probe() -> Verdict {
    vm_child::probe(|stack| call(stack, exit_now, std::ptr::null_mut()), verdict)
}
