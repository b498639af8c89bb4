//! Handler, flags, mask: asm-generic architectures without `SA_RESTORER` (riscv, loongarch).
//! 16 bytes on 32-bit, 24 on 64-bit.

/// One above the highest signal number (`_NSIG` is 64).
pub const NSIG: libc::c_int = 65;

/// The kernel's `struct sigaction` here. All zero is `SIG_DFL`, no flags, an empty mask.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KernelSigaction {
    pub handler: usize,
    pub flags: libc::c_ulong,
    pub mask: [libc::c_ulong; 64 / libc::c_ulong::BITS as usize],
}

#[cfg(target_pointer_width = "32")]
const SIZE_AND_MASK_OFFSET: (usize, usize) = (16, 8);
#[cfg(target_pointer_width = "64")]
const SIZE_AND_MASK_OFFSET: (usize, usize) = (24, 16);

const _: () = assert!(size_of::<KernelSigaction>() == SIZE_AND_MASK_OFFSET.0);
const _: () = assert!(std::mem::offset_of!(KernelSigaction, mask) == SIZE_AND_MASK_OFFSET.1);
