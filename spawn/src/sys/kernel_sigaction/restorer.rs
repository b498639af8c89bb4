//! Handler, flags, restorer, mask: architectures with `__ARCH_HAS_SA_RESTORER` (x86 and x32,
//! x86_64, arm, aarch64, powerpc, s390x, m68k, sparc). 20 bytes on 32-bit, 32 on 64-bit.

/// One above the highest signal number (`_NSIG` is 64).
pub const NSIG: libc::c_int = 65;

/// The kernel's `struct sigaction` here. All zero is `SIG_DFL`, no flags, an empty mask.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KernelSigaction {
    /// `SA_HANDLER`: a handler address, or `SIG_DFL` (0) / `SIG_IGN` (1).
    pub handler: usize,
    /// `SA_*` flags.
    pub flags: libc::c_ulong,
    /// `SA_RESTORER`'s return trampoline (unused here: no handler is installed).
    pub restorer: usize,
    /// Signals blocked while the handler runs, one bit per signal.
    pub mask: [libc::c_ulong; 64 / libc::c_ulong::BITS as usize],
}

assert_layout!(32 => (20, 12), 64 => (32, 24));
