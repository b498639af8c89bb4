//! MIPS (`__ARCH_HAS_IRIX_SIGACTION`, `arch/mips/include/uapi/asm/signal.h`): `unsigned int`
//! flags first, then the handler, no restorer, and a mask of 128 signals. 24 bytes on o32,
//! 32 on n64 (the handler is aligned to 8).

/// One above the highest signal number: MIPS has 128 signals (`_NSIG` is 128).
pub const NSIG: libc::c_int = 129;

/// The kernel's `struct sigaction` here. All zero is `SIG_DFL`, no flags, an empty mask.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KernelSigaction {
    /// `SA_*` flags.
    pub flags: libc::c_uint,
    /// `SA_HANDLER`: a handler address, or `SIG_DFL` (0) / `SIG_IGN` (1).
    pub handler: usize,
    /// Signals blocked while the handler runs, one bit per signal.
    pub mask: [libc::c_ulong; 128 / libc::c_ulong::BITS as usize],
}

assert_layout!(32 => (24, 8), 64 => (32, 16));
