//! Signal dispositions in the child through the `rt_sigaction` system call itself (Linux).
//!
//! A `CLONE_VM` child shares the parent's memory, so it must not enter code that may take a
//! libc lock: musl's `sigaction` takes its abort lock for `SIGABRT`. The raw call takes none,
//! and also reaches the numbers libcs reserve for themselves (glibc's and musl's cancellation
//! and set-id signals), which the child may reset like any other before it execs. The kernel's
//! struct, per architecture, is `crate::sys::kernel_sigaction`.

use crate::platform::errno::errno;
use crate::sys::kernel_sigaction::{rt_sigaction, KernelSigaction};

/// Whether the child's signal calls are raw system calls, safe in a `CLONE_VM` child. (Read
/// by the clone strategies, which exist on Linux only, not Android.)
#[cfg(target_os = "linux")]
pub(crate) const RAW_SIGACTION: bool = true;

/// Whether `sig` has a handler installed (neither `SIG_DFL` nor `SIG_IGN`); `None` when the
/// kernel refuses the number.
///
/// # Safety
/// Async-signal-safe; may run in a `CLONE_VM` child.
pub(crate) unsafe fn has_handler(sig: libc::c_int) -> Option<bool> {
    let mut old = KernelSigaction::default();
    if rt_sigaction(sig, std::ptr::null(), &mut old) == -1 {
        return None;
    }
    Some(old.handler != libc::SIG_DFL && old.handler != libc::SIG_IGN)
}

/// Adds to `set` each signal the libc keeps for itself (from 32 up to `SIGRTMIN`: glibc's
/// `SIGCANCEL` and `SIGSETXID`, musl's 32 to 34) that this process does not ignore, writing
/// the bits directly (libc's `sigaddset` refuses these numbers). For `posix_spawn`'s
/// `SIGDEFAULT` set: glibc's and musl's child ignore each such signal that is not in it
/// (glibc `sysdeps/unix/sysv/linux/spawni.c`, `__is_internal_signal`), and the ignore
/// survives `execve`, where every other strategy leaves it at its default (the parent's
/// libc handler is reset like any caught signal) or ignored (where this process ignores it).
pub(crate) fn add_reserved_unless_ignored(set: &mut libc::sigset_t) {
    let bits = libc::c_ulong::BITS as usize;
    let words = std::mem::size_of::<libc::sigset_t>() / std::mem::size_of::<libc::c_ulong>();
    let ptr = (set as *mut libc::sigset_t).cast::<libc::c_ulong>();
    for sig in 32..libc::SIGRTMIN() {
        let mut old = KernelSigaction::default();
        // SAFETY: a query of one signal's action into a kernel-sized struct.
        if unsafe { rt_sigaction(sig, std::ptr::null(), &mut old) } == -1
            || old.handler == libc::SIG_IGN
        {
            continue;
        }
        let bit = (sig - 1) as usize;
        if bit / bits < words {
            // SAFETY: a word inside `set`, which is an array of unsigned longs on Linux.
            unsafe { *ptr.add(bit / bits) |= 1 << (bit % bits) };
        }
    }
}

/// Sets `sig` to `SIG_DFL` with an empty mask and no flags. Returns 0 or an errno.
///
/// # Safety
/// Async-signal-safe; may run in a `CLONE_VM` child.
pub(crate) unsafe fn set_default(sig: libc::c_int) -> libc::c_int {
    let dfl = KernelSigaction::default();
    if rt_sigaction(sig, &dfl, std::ptr::null_mut()) == -1 {
        errno()
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many bytes the kernel writes as the old action of `rt_sigaction`, measured: the
    /// buffer is filled twice (0x00, then 0xFF) and the last byte that differs from the fill
    /// in either run ends the kernel's struct.
    fn kernel_writes(sig: libc::c_int) -> usize {
        let mut end = 0;
        for fill in [0x00u8, 0xFF] {
            let mut buf = [fill; 256];
            // SAFETY: the buffer is far larger than any kernel struct sigaction.
            let rc = unsafe {
                libc::syscall(
                    libc::SYS_rt_sigaction,
                    sig,
                    std::ptr::null::<u8>(),
                    buf.as_mut_ptr(),
                    crate::sys::kernel_sigaction::SIGSET_BYTES,
                )
            };
            assert_eq!(rc, 0, "rt_sigaction: {}", std::io::Error::last_os_error());
            if let Some(last) = buf.iter().rposition(|&b| b != fill) {
                end = end.max(last + 1);
            }
        }
        end
    }

    extern "C" fn ignore(_: libc::c_int) {}

    /// The struct `has_handler` passes as the old-action buffer is exactly as large as what
    /// the kernel writes into it (on i686 the kernel writes 20 bytes: a 16-byte struct would
    /// be overrun inside the `CLONE_VM` child).
    #[test]
    fn kernel_sigaction_is_as_large_as_what_the_kernel_writes() {
        // A handler with every flag bit the kernel keeps and a full mask, so every field of
        // the kernel's old action is non-trivial. SIGUSR2 is not used by other tests here.
        // SAFETY: installs a do-nothing handler; the old action is put back below.
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = ignore as extern "C" fn(libc::c_int) as usize;
            libc::sigfillset(&mut act.sa_mask);
            act.sa_flags = libc::SA_RESTART | libc::SA_NODEFER;
            let mut old: libc::sigaction = std::mem::zeroed();
            assert_eq!(libc::sigaction(libc::SIGUSR2, &act, &mut old), 0);
            let measured = kernel_writes(libc::SIGUSR2);
            assert_eq!(has_handler(libc::SIGUSR2), Some(true));
            assert_eq!(
                libc::sigaction(libc::SIGUSR2, &old, std::ptr::null_mut()),
                0
            );
            assert_eq!(std::mem::size_of::<KernelSigaction>(), measured);
        }
    }
}
