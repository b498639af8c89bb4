//! Signal sets built in the parent, and the guard that blocks every signal around a clone.

use std::io;
use std::mem::MaybeUninit;

use crate::platform::errno::check;
use crate::request::InputError;
use crate::platform;

/// An empty signal set.
pub(crate) fn empty_set() -> io::Result<libc::sigset_t> {
    let mut set = MaybeUninit::<libc::sigset_t>::uninit();
    // SAFETY: sigemptyset initialises the set it is given.
    check(unsafe { libc::sigemptyset(set.as_mut_ptr()) })?;
    // SAFETY: initialised just above.
    Ok(unsafe { set.assume_init() })
}

/// The set of `signals`; a number the platform rejects is `InvalidInput`, `use_` saying what
/// the set was for.
pub(crate) fn set_of(signals: &[libc::c_int], use_: &'static str) -> io::Result<libc::sigset_t> {
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
pub(crate) fn check_resettable(signals: &[libc::c_int]) -> io::Result<()> {
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
pub(crate) struct BlockAll {
    old: libc::sigset_t,
    restored: bool,
}

impl BlockAll {
    /// Blocks every signal the thread may block (through the kernel itself where this crate
    /// declares its signal set, so the libc-internal signals too), remembering the old mask.
    pub(crate) fn new() -> io::Result<BlockAll> {
        Ok(BlockAll {
            old: platform::block_all()?,
            restored: false,
        })
    }

    /// The thread's mask before blocking: what the child gets unless told otherwise.
    pub(crate) fn old(&self) -> &libc::sigset_t {
        &self.old
    }

    /// Puts the old mask back.
    pub(crate) fn restore(mut self) -> io::Result<()> {
        self.restored = true;
        platform::restore(&self.old)
    }
}

impl Drop for BlockAll {
    fn drop(&mut self) {
        if !self.restored {
            // It cannot fail with a mask it returned itself, and a drop has nowhere to report
            // to; `restore` is the checked path.
            let _ = platform::restore(&self.old);
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

    /// What the kernel has blocked for this thread while `BlockAll` is held: everything but
    /// `SIGKILL` and `SIGSTOP`, the libc-internal signals included (glibc 32 and 33, musl 32
    /// to 34), as glibc's own `posix_spawn` blocks them. Read with raw `rt_sigprocmask`, since
    /// libc's would hide those numbers.
    #[cfg(spawnmatrix_raw_sigaction)]
    #[rstest]
    fn block_all_blocks_every_signal_the_kernel_can_block() {
        use crate::sys::kernel_sigaction::{rt_sigprocmask, NSIG, SIGSET_WORDS};
        let block = BlockAll::new().unwrap();
        let mut now: [libc::c_ulong; SIGSET_WORDS] = [0; SIGSET_WORDS];
        // SAFETY: reads the mask into a kernel-sized set.
        let rc =
            unsafe { rt_sigprocmask(libc::SIG_BLOCK, std::ptr::null(), now.as_mut_ptr().cast()) };
        block.restore().unwrap();
        assert_eq!(rc, 0);
        let bits = libc::c_ulong::BITS as usize;
        let unblocked: Vec<libc::c_int> = (1..NSIG)
            .filter(|&s| {
                let bit = usize::try_from(s - 1).unwrap();
                now[bit / bits] & (1 << (bit % bits)) == 0
            })
            .collect();
        assert_eq!(unblocked, [libc::SIGKILL, libc::SIGSTOP]);
    }
}
