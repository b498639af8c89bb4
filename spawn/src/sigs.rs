//! Signal sets built in the parent, and the guard that blocks every signal around a clone.

use std::io;
use std::mem::MaybeUninit;

use super::error::{check, check_rc, InputError};

/// An empty signal set.
pub(super) fn empty_set() -> io::Result<libc::sigset_t> {
    let mut set = MaybeUninit::<libc::sigset_t>::uninit();
    // SAFETY: sigemptyset initialises the set it is given.
    check(unsafe { libc::sigemptyset(set.as_mut_ptr()) })?;
    // SAFETY: initialised just above.
    Ok(unsafe { set.assume_init() })
}

/// The set of `signals`; a number the platform rejects is `InvalidInput`, `use_` saying what
/// the set was for.
pub(super) fn set_of(signals: &[libc::c_int], use_: &'static str) -> io::Result<libc::sigset_t> {
    let mut set = empty_set()?;
    for &signal in signals {
        // SAFETY: `set` is an initialised sigset_t.
        if unsafe { libc::sigaddset(&mut set, signal) } != 0 {
            return Err(InputError::Signal { signal, use_ }.into());
        }
    }
    Ok(set)
}

/// Checks that each signal's disposition may be set to `SIG_DFL` in the child.
pub(super) fn check_resettable(signals: &[libc::c_int]) -> io::Result<()> {
    let use_ = "reset to SIG_DFL";
    set_of(signals, use_)?;
    match signals
        .iter()
        .find(|&&s| s == libc::SIGKILL || s == libc::SIGSTOP)
    {
        Some(&signal) => Err(InputError::Signal { signal, use_ }.into()),
        None => Ok(()),
    }
}

/// Every signal blocked in the calling thread until [`BlockAll::restore`] (or drop), so no
/// handler runs in a child that shares the parent's memory before it resets its handlers.
pub(super) struct BlockAll {
    old: libc::sigset_t,
    restored: bool,
}

impl BlockAll {
    /// Blocks every signal the thread may block, remembering the old mask.
    pub(super) fn new() -> io::Result<BlockAll> {
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
            Ok(BlockAll {
                old: old.assume_init(),
                restored: false,
            })
        }
    }

    /// The thread's mask before blocking: what the child gets unless told otherwise.
    pub(super) fn old(&self) -> &libc::sigset_t {
        &self.old
    }

    /// Puts the old mask back.
    pub(super) fn restore(mut self) -> io::Result<()> {
        self.restored = true;
        // SAFETY: `old` is the mask pthread_sigmask gave us.
        check_rc(unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &self.old, std::ptr::null_mut())
        })
    }
}

impl Drop for BlockAll {
    fn drop(&mut self) {
        if !self.restored {
            // SAFETY: as in `restore`. It cannot fail with a mask it returned itself, and a
            // drop has nowhere to report to; `restore` is the checked path.
            unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.old, std::ptr::null_mut()) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(&[libc::SIGUSR1, libc::SIGTERM], true)]
    #[case(&[], true)]
    #[case(&[0], false)]
    #[case(&[-1], false)]
    #[case(&[100_000], false)]
    fn set_of_rejects_unknown_signals(#[case] sigs: &[libc::c_int], #[case] ok: bool) {
        let r = set_of(sigs, "masked");
        assert_eq!(r.is_ok(), ok);
        if let Err(e) = r {
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        }
    }

    #[rstest]
    #[case(&[libc::SIGPIPE, libc::SIGINT], true)]
    #[case(&[libc::SIGKILL], false)]
    #[case(&[libc::SIGUSR1, libc::SIGSTOP], false)]
    fn kill_and_stop_cannot_be_reset(#[case] sigs: &[libc::c_int], #[case] ok: bool) {
        assert_eq!(check_resettable(sigs).is_ok(), ok);
    }
}
