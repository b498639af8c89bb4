//! Whether the libc's `posix_spawn` can create a process here at all. It creates the child
//! its own way (glibc >= 2.34 with `clone3` and no fallback on `EPERM`, then `clone` with
//! `CLONE_VM`; musl with `clone(CLONE_VM|CLONE_VFORK)`), so a seccomp filter that refuses that
//! makes every call fail, and its `EPERM` cannot be told from an exec's. So it is probed once:
//! a spawn of a path that cannot exist must come back `ENOENT` from the child.

use std::ffi::{c_char, CStr};

use crate::child::wait_pid;
use crate::learned::{Learned, Verdict};

static LEARNED: Learned = Learned::new();

const MISSING: &CStr = c"/nonexistent/spawnmatrix-posix-spawn-probe";

/// Whether `posix_spawn` works here; probes once if not yet known.
pub(crate) fn works() -> bool {
    LEARNED.works(probe)
}

fn probe() -> Verdict {
    let mut pid = 0;
    let argv: [*mut c_char; 2] = [MISSING.as_ptr().cast_mut(), std::ptr::null_mut()];
    let envp: [*mut c_char; 1] = [std::ptr::null_mut()];
    // SAFETY: valid NUL-terminated path and arrays; no file actions or attributes.
    let rc = unsafe {
        crate::sys::spawn_fns::posix_spawn(
            &mut pid,
            MISSING.as_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            argv.as_ptr(),
            envp.as_ptr(),
        )
    };
    match rc {
        // The child ran and its exec failed: the libc reaped it and reports the errno.
        libc::ENOENT => Verdict::Works,
        // A child was made after all (an exec that reports nothing): reap it.
        0 => {
            let _ = wait_pid(pid, 0);
            Verdict::Works
        }
        libc::EPERM | libc::ENOSYS => Verdict::Refused,
        _ => Verdict::Inconclusive,
    }
}
