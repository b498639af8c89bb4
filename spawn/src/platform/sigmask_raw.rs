//! The thread's signal mask through the `rt_sigprocmask` system call itself (Linux), so that
//! "block every signal" blocks what the kernel can block: libc's `sigfillset` and
//! `pthread_sigmask` leave out the signals the libc keeps for itself (glibc's SIGCANCEL and
//! SIGSETXID, 32 and 33; musl's 32 to 34). glibc's `posix_spawn` blocks those too, on purpose:
//! a handler for them must not run in a child that shares the parent's memory.

use std::io;

use crate::platform::errno::errno;
use crate::sys::kernel_sigaction::{rt_sigprocmask, FULL_SET};

/// Blocks every signal the kernel lets this thread block; returns the old mask (the kernel's
/// set at the start of an otherwise empty `sigset_t`).
pub(crate) fn block_all() -> io::Result<libc::sigset_t> {
    // SAFETY: an all-zero sigset_t is the empty set on glibc and musl.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: both sets are at least the kernel's size (checked in `kernel_sigaction`).
    let rc = unsafe {
        rt_sigprocmask(
            libc::SIG_SETMASK,
            FULL_SET.as_ptr().cast(),
            std::ptr::addr_of_mut!(old).cast(),
        )
    };
    if rc == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(old)
}

/// Puts back a mask `block_all` returned.
pub(crate) fn restore(old: &libc::sigset_t) -> io::Result<()> {
    // SAFETY: `old` is a valid set; nothing is read back.
    match unsafe { set_mask(old) } {
        0 => Ok(()),
        e => Err(io::Error::from_raw_os_error(e)),
    }
}

/// Sets the calling thread's mask to `set`, exactly. Returns 0 or an errno.
///
/// # Safety
/// `set` is valid for reads. Async-signal-safe; may run in a `CLONE_VM` child.
pub(crate) unsafe fn set_mask(set: *const libc::sigset_t) -> libc::c_int {
    if rt_sigprocmask(libc::SIG_SETMASK, set.cast(), std::ptr::null_mut()) == -1 {
        errno()
    } else {
        0
    }
}
