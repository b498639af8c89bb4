//! MIPS (`__ARCH_HAS_IRIX_SIGACTION`, `arch/mips/include/uapi/asm/signal.h`): `unsigned int`
//! flags first, then the handler, no restorer, and a mask of 128 signals. 24 bytes on o32,
//! 32 on n64 (the handler is aligned to 8).

/// One above the highest signal number: MIPS has 128 signals (`_NSIG` is 128).
pub const NSIG: libc::c_int = 129;

/// The kernel's `struct sigaction` here. All zero is `SIG_DFL`, no flags, an empty mask.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KernelSigaction {
    pub flags: libc::c_uint,
    pub handler: usize,
    pub mask: [libc::c_ulong; 128 / libc::c_ulong::BITS as usize],
}

#[cfg(target_pointer_width = "32")]
const SIZE_AND_MASK_OFFSET: (usize, usize) = (24, 8);
#[cfg(target_pointer_width = "64")]
const SIZE_AND_MASK_OFFSET: (usize, usize) = (32, 16);

const _: () = assert!(size_of::<KernelSigaction>() == SIZE_AND_MASK_OFFSET.0);
const _: () = assert!(std::mem::offset_of!(KernelSigaction, mask) == SIZE_AND_MASK_OFFSET.1);
