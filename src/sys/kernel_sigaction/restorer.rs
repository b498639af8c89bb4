//! Handler, flags, restorer, mask: architectures with `__ARCH_HAS_SA_RESTORER` (x86 and x32,
//! x86_64, arm, aarch64, powerpc, s390x, m68k, sparc). 20 bytes on 32-bit, 32 on 64-bit.

/// One above the highest signal number (`_NSIG` is 64).
pub const NSIG: libc::c_int = 65;

/// The kernel's `struct sigaction` here. All zero is `SIG_DFL`, no flags, an empty mask.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KernelSigaction {
    pub handler: usize,
    pub flags: libc::c_ulong,
    pub restorer: usize,
    pub mask: [libc::c_ulong; 64 / libc::c_ulong::BITS as usize],
}

#[cfg(target_pointer_width = "32")]
const SIZE_AND_MASK_OFFSET: (usize, usize) = (20, 12);
#[cfg(target_pointer_width = "64")]
const SIZE_AND_MASK_OFFSET: (usize, usize) = (32, 24);

const _: () = assert!(size_of::<KernelSigaction>() == SIZE_AND_MASK_OFFSET.0);
const _: () = assert!(std::mem::offset_of!(KernelSigaction, mask) == SIZE_AND_MASK_OFFSET.1);
