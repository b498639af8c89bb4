//! The thread's signal mask through libc (`pthread_sigmask` in the parent, `sigprocmask` in
//! a forked child), where this crate does not declare the kernel's signal set.

use std::io;
use std::mem::MaybeUninit;

use crate::platform::errno::{check, check_rc, errno};

/// Blocks every signal libc lets this thread block; returns the old mask.
pub(crate) fn block_all() -> io::Result<libc::sigset_t> {
    let mut all = MaybeUninit::<libc::sigset_t>::uninit();
    let mut old = MaybeUninit::<libc::sigset_t>::uninit();
    // SAFETY: sigfillset initialises `all`; pthread_sigmask fills `old` when it returns 0.
    unsafe {
        check(libc::sigfillset(all.as_mut_ptr()))?;
        check_rc(libc::pthread_sigmask(
            libc::SIG_SETMASK,
            all.as_ptr(),
            old.as_mut_ptr(),
        ))?;
        Ok(old.assume_init())
    }
}

/// Puts back a mask `block_all` returned.
pub(crate) fn restore(old: &libc::sigset_t) -> io::Result<()> {
    // SAFETY: `old` is a mask pthread_sigmask gave us.
    check_rc(unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, old, std::ptr::null_mut()) })
}

/// Sets the calling thread's mask to `set`. Returns 0 or an errno.
///
/// # Safety
/// `set` is valid for reads. Async-signal-safe; runs in a forked child.
pub(crate) unsafe fn set_mask(set: *const libc::sigset_t) -> libc::c_int {
    if libc::sigprocmask(libc::SIG_SETMASK, set, std::ptr::null_mut()) == -1 {
        errno()
    } else {
        0
    }
}
