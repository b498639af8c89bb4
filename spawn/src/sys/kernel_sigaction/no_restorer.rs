//! Handler, flags, mask: asm-generic architectures without `SA_RESTORER` (riscv, loongarch).
//! 16 bytes on 32-bit, 24 on 64-bit.

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
    /// Signals blocked while the handler runs, one bit per signal.
    pub mask: [libc::c_ulong; 64 / libc::c_ulong::BITS as usize],
}

assert_layout!(32 => (16, 8), 64 => (24, 16));
