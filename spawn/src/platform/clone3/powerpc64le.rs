//! The clone3 trampoline for little-endian powerpc64 (the ELFv2 ABI; big-endian ELFv1, with
//! its function descriptors, has none and reports clone3 as refused).

use std::arch::asm;
use std::ffi::c_void;

use super::Entry;
use crate::sys::linux_kernel::CloneArgs;

/// This file is a trampoline.
pub(crate) const HAS_TRAMPOLINE: bool = true;

/// `clone3(args, size)`. Returns the child's pid or `-errno` in the parent. `sc` takes the
/// number in `r0` and the arguments in `r3` and `r4`; on failure it sets the summary-overflow
/// bit of `cr0` and returns a positive errno in `r3`, which is negated here. The kernel may
/// change `r0` and `r4` to `r12`, `ctr`, `xer` and `cr0`, so `arg` and `entry` travel in the
/// non-volatile `r14` and `r15`. The child starts on the stack given in `args` (`r1` = its
/// top) with `r3` = 0; it makes the minimal ELFv2 frame (32 bytes, back chain 0) and calls
/// `entry(arg)` through `ctr` with the entry's address in `r12`, from which the entry's
/// global entry point derives its TOC pointer (`r2`). The entry never returns (`trap` if it
/// did).
///
/// # Safety
/// `args` must describe a private stack that stays mapped until the child execs or exits.
pub(crate) unsafe fn raw_clone3(
    args: *const CloneArgs,
    size: usize,
    entry: Entry,
    arg: *mut c_void,
) -> i64 {
    let ret: i64;
    asm!(
        "sc",
        "bns 1f",
        "neg 3, 3",
        "1:",
        "cmpdi 3, 0",
        "bne 2f",
        "li 0, 0",
        "stdu 0, -32(1)",
        "mr 3, 14",
        "mr 12, 15",
        "mtctr 12",
        "bctrl",
        "trap",
        "2:",
        inlateout("r0") libc::SYS_clone3 => _,
        inlateout("r3") args => ret,
        inlateout("r4") size => _,
        in("r14") arg,
        in("r15") entry,
        lateout("r5") _,
        lateout("r6") _,
        lateout("r7") _,
        lateout("r8") _,
        lateout("r9") _,
        lateout("r10") _,
        lateout("r11") _,
        lateout("r12") _,
        out("ctr") _,
        out("xer") _,
        out("cr0") _,
    );
    ret
}
