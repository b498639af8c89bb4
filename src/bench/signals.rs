//! Signal handling around a child that shares the parent's memory (vfork, CLONE_VM): all
//! signals stay blocked from before the child exists until it has reset the parent's handlers,
//! so no handler of the parent ever runs on the parent's memory in the child.

use std::io;
use std::mem::MaybeUninit;
use std::os::raw::c_int;
use std::ptr;

use crate::sys::check_rc;

/// Highest signal number probed; sigaction rejects numbers the platform does not have.
const MAX_SIGNAL: c_int = 128;

/// The signals that currently have a handler (neither SIG_DFL nor SIG_IGN). Read once per
/// method, before measuring; the benchmark installs no handlers while it runs.
pub fn handled() -> Vec<c_int> {
    (1..=MAX_SIGNAL)
        .filter(|&sig| {
            let mut old = MaybeUninit::<libc::sigaction>::zeroed();
            // SAFETY: queries only (no new action); `old` is writable.
            let ok = unsafe { libc::sigaction(sig, ptr::null(), old.as_mut_ptr()) } == 0;
            // SAFETY: sigaction filled `old` when it returned 0.
            ok && {
                let handler = unsafe { old.assume_init() }.sa_sigaction;
                handler != libc::SIG_DFL && handler != libc::SIG_IGN
            }
        })
        .collect()
}

/// Blocks every signal until dropped, then restores the previous mask.
pub struct BlockAll {
    old: libc::sigset_t,
}

impl BlockAll {
    pub fn new() -> io::Result<BlockAll> {
        let mut all = MaybeUninit::<libc::sigset_t>::uninit();
        let mut old = MaybeUninit::<libc::sigset_t>::uninit();
        // SAFETY: both sets are written by the calls before they are read; codes are checked.
        unsafe {
            if libc::sigfillset(all.as_mut_ptr()) != 0 {
                return Err(io::Error::last_os_error());
            }
            check_rc(libc::pthread_sigmask(
                libc::SIG_SETMASK,
                all.as_ptr(),
                old.as_mut_ptr(),
            ))?;
            Ok(BlockAll {
                old: old.assume_init(),
            })
        }
    }

    /// The mask to restore, for the child to apply before execve.
    pub fn old_mask(&self) -> &libc::sigset_t {
        &self.old
    }
}

impl Drop for BlockAll {
    fn drop(&mut self) {
        // SAFETY: restores a mask read by pthread_sigmask; it cannot fail for a valid set.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.old, ptr::null_mut()) };
    }
}
