//! The kernel's own `struct sigaction` (the one `rt_sigaction` reads and writes, not libc's)
//! and the raw call, per architecture; the layout is chosen by `build/raw_sigaction.rs` as
//! `cfg(spawnmatrix_kernel_sigaction = "...")`.
//!
//! The kernel's struct is `include/linux/signal_types.h`: handler and `unsigned long` flags
//! (flags as `unsigned int` first where `__ARCH_HAS_IRIX_SIGACTION`, MIPS), a restorer where
//! `__ARCH_HAS_SA_RESTORER`, then the kernel `sigset_t` (`unsigned long[_NSIG / BITS]`, so
//! 8 bytes, 16 on MIPS whose `_NSIG` is 128). It is written whole as the old action, so a
//! buffer one word short is overrun (issue 11: 16 bytes declared, 20 written on i686).
//! Each layout module asserts its size and mask offset per pointer width at compile time.

/// Asserts the layout module's `KernelSigaction` size and `mask` offset, as the kernel
/// headers give them, for 32-bit and 64-bit targets.
macro_rules! assert_layout {
    (32 => ($size32:expr, $mask32:expr), 64 => ($size64:expr, $mask64:expr)) => {
        #[cfg(target_pointer_width = "32")]
        const SIZE_AND_MASK_OFFSET: (usize, usize) = ($size32, $mask32);
        #[cfg(target_pointer_width = "64")]
        const SIZE_AND_MASK_OFFSET: (usize, usize) = ($size64, $mask64);
        const _: () = assert!(size_of::<KernelSigaction>() == SIZE_AND_MASK_OFFSET.0);
        const _: () =
            assert!(std::mem::offset_of!(KernelSigaction, mask) == SIZE_AND_MASK_OFFSET.1);
    };
}

#[cfg_attr(spawnmatrix_kernel_sigaction = "restorer", path = "restorer.rs")]
#[cfg_attr(spawnmatrix_kernel_sigaction = "no_restorer", path = "no_restorer.rs")]
#[cfg_attr(spawnmatrix_kernel_sigaction = "mips", path = "mips.rs")]
mod layout;

pub use layout::{KernelSigaction, NSIG};

/// The size of the kernel's `sigset_t`: the `sigsetsize` argument of `rt_sigaction` and
/// `rt_sigprocmask`, which the kernel insists on.
pub const SIGSET_BYTES: usize = (NSIG as usize - 1) / 8;

/// The words of a kernel `sigset_t`.
pub const SIGSET_WORDS: usize = SIGSET_BYTES / size_of::<libc::c_ulong>();

/// A full kernel signal set, for `rt_sigprocmask` (the kernel itself drops `SIGKILL` and
/// `SIGSTOP`).
pub const FULL_SET: [libc::c_ulong; SIGSET_WORDS] = [libc::c_ulong::MAX; SIGSET_WORDS];

/// `rt_sigaction(sig, act, oact)`: 0, or -1 with errno set. Async-signal-safe, no lock.
///
/// # Safety
/// `act` is null or valid for reads, `oact` null or valid for writes.
#[cfg(not(any(target_arch = "sparc", target_arch = "sparc64")))]
pub unsafe fn rt_sigaction(
    sig: libc::c_int,
    act: *const KernelSigaction,
    oact: *mut KernelSigaction,
) -> libc::c_long {
    libc::syscall(libc::SYS_rt_sigaction, sig, act, oact, SIGSET_BYTES)
}

/// `rt_sigaction(sig, act, oact)`. SPARC's system call takes the restorer as a separate
/// argument before the set size (`arch/sparc/kernel/sys_sparc_{32,64}.c`); none is passed,
/// since this crate only queries actions or sets `SIG_DFL`, which never returns through one.
///
/// # Safety
/// `act` is null or valid for reads, `oact` null or valid for writes.
#[cfg(any(target_arch = "sparc", target_arch = "sparc64"))]
pub unsafe fn rt_sigaction(
    sig: libc::c_int,
    act: *const KernelSigaction,
    oact: *mut KernelSigaction,
) -> libc::c_long {
    let restorer = std::ptr::null::<libc::c_void>();
    libc::syscall(
        libc::SYS_rt_sigaction,
        sig,
        act,
        oact,
        restorer,
        SIGSET_BYTES,
    )
}

/// `rt_sigprocmask(how, set, old)` on kernel sets: 0, or -1 with errno set. Unlike libc's
/// `sigprocmask`/`pthread_sigmask` it neither drops nor refuses the signals the libc keeps for
/// itself (glibc 32 and 33, musl 32 to 34).
///
/// # Safety
/// `set` is null or valid for reads, `old` null or valid for writes, of `SIGSET_BYTES`.
pub unsafe fn rt_sigprocmask(
    how: libc::c_int,
    set: *const libc::c_void,
    old: *mut libc::c_void,
) -> libc::c_long {
    libc::syscall(libc::SYS_rt_sigprocmask, how, set, old, SIGSET_BYTES)
}

// libc's `sigset_t` starts with the kernel's set on glibc and musl, so one may stand for the
// other in the calls above.
const _: () = assert!(size_of::<libc::sigset_t>() >= SIGSET_BYTES);
const _: () = assert!(SIGSET_WORDS * size_of::<libc::c_ulong>() == SIGSET_BYTES);
