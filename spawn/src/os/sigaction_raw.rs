//! Signal dispositions in the child through the `rt_sigaction` system call itself (Linux).
//!
//! A `CLONE_VM` child shares the parent's memory, so it must not enter code that may take a
//! libc lock: musl's `sigaction` takes its abort lock for `SIGABRT`. The raw call takes none,
//! and also reaches the numbers libcs reserve for themselves (glibc's and musl's cancellation
//! and set-id signals), which the child may reset like any other before it execs.

use crate::error::errno;

/// The kernel's `struct sigaction` as far as the child uses it: the handler comes first on
/// every architecture this module is built for (not MIPS, whose flags come first), and an
/// all-zero value is `SIG_DFL` with no flags and an empty mask. Four words cover the largest
/// layout (handler, flags, restorer, 64-bit mask), so the kernel never reads or writes past it.
#[repr(C)]
struct KernelSigaction {
    handler: usize,
    rest: [usize; 3],
}

/// The size of the kernel's signal set: 64 signals.
const KERNEL_SIGSET_BYTES: usize = 8;

/// Whether `sig` has a handler installed (neither `SIG_DFL` nor `SIG_IGN`); `None` when the
/// kernel refuses the number.
///
/// # Safety
/// Async-signal-safe; may run in a `CLONE_VM` child.
pub(crate) unsafe fn has_handler(sig: libc::c_int) -> Option<bool> {
    let mut old = KernelSigaction {
        handler: 0,
        rest: [0; 3],
    };
    let rc = libc::syscall(
        libc::SYS_rt_sigaction,
        sig,
        std::ptr::null::<KernelSigaction>(),
        &mut old as *mut KernelSigaction,
        KERNEL_SIGSET_BYTES,
    );
    if rc == -1 {
        return None;
    }
    Some(old.handler != libc::SIG_DFL && old.handler != libc::SIG_IGN)
}

/// Sets `sig` to `SIG_DFL` with an empty mask and no flags. Returns 0 or an errno.
///
/// # Safety
/// Async-signal-safe; may run in a `CLONE_VM` child.
pub(crate) unsafe fn set_default(sig: libc::c_int) -> libc::c_int {
    let dfl = KernelSigaction {
        handler: libc::SIG_DFL,
        rest: [0; 3],
    };
    let rc = libc::syscall(
        libc::SYS_rt_sigaction,
        sig,
        &dfl as *const KernelSigaction,
        std::ptr::null_mut::<KernelSigaction>(),
        KERNEL_SIGSET_BYTES,
    );
    if rc == -1 {
        errno()
    } else {
        0
    }
}
