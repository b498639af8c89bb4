//! `clone(CLONE_VM|CLONE_VFORK)`: the parent sleeps until the child execs or exits; the child
//! resets caught signals itself (one `rt_sigaction` query per signal).

use std::ffi::c_void;
use std::io;

use super::vm_child::{self, child_main};
use crate::dispatch::unsupported;
use crate::error::errno;
use crate::plan::Prepared;
use crate::strategy::Strategy;

extern "C" fn entry(arg: *mut c_void) -> libc::c_int {
    // SAFETY: `arg` is what `vm_child::spawn` passed to clone.
    unsafe { child_main(arg) }
}

/// Spawns with `clone(CLONE_VM|CLONE_VFORK)`.
pub(crate) fn clone_vfork(p: &mut Prepared) -> io::Result<libc::pid_t> {
    if !super::clone_vfork_supported() {
        return Err(unsupported(
            Strategy::CloneVfork,
            "run: glibc's clone before 2.25 overwrites the parent's PID/TID cache",
        ));
    }
    let r = vm_child::spawn(p, true, |stack, arg| {
        let flags = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;
        // SAFETY: a private stack, an entry that never returns, and `arg` alive throughout.
        match unsafe { libc::clone(entry, stack.top(), flags, arg) } {
            -1 => Err(errno()),
            pid => Ok(pid),
        }
    })?;
    r.map_err(io::Error::from_raw_os_error)
}
