//! The clone3 trampoline for s390x (64-bit z/Architecture, big-endian).

use std::arch::asm;
use std::ffi::c_void;

use super::Entry;
use crate::sys::linux_kernel::CloneArgs;

/// This file is a trampoline.
pub(crate) const HAS_TRAMPOLINE: bool = true;

/// `clone3(args, size)`. Returns the child's pid or `-errno` in the parent. The number goes in
/// `r1` with `svc 0` (an `svc` immediate holds only numbers below 256; clone3 is 435), the
/// arguments in `r2` and `r3`, the result comes back in `r2`, and the kernel keeps every other
/// register. clone3 takes one struct, so legacy `clone`'s swapped stack and flags arguments
/// do not arise. The child starts on the stack given in `args` (`r15` = its top) with `r2` =
/// 0: the ELF ABI wants a caller to give its callee 160 bytes of register save area at `r15`
/// and a back chain there, so the child makes that frame (back chain 0, frame pointer `r11`
/// 0) and calls `entry(arg)` with `basr`, which never returns (the all-zero halfword after it
/// is an invalid operation if it did).
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
        "svc 0",
        "ltgr %r2, %r2",
        "jnz 2f",
        "aghi %r15, -160",
        "xc 0(8,%r15), 0(%r15)",
        "lghi %r11, 0",
        "lgr %r2, %r9",
        "basr %r14, %r10",
        ".2byte 0",
        "2:",
        in("r1") libc::SYS_clone3,
        inlateout("r2") args => ret,
        in("r3") size,
        in("r9") arg,
        in("r10") entry,
    );
    ret
}
