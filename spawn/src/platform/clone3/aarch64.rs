//! The clone3 trampoline for aarch64.

use std::arch::asm;
use std::ffi::c_void;

use super::Entry;
use crate::sys::linux_kernel::CloneArgs;

/// This file is a trampoline.
pub(crate) const HAS_TRAMPOLINE: bool = true;

/// `clone3(args, size)`. Returns the child's pid or `-errno` in the parent. The child starts
/// on the stack given in `args` with `x0` = 0 and the parent's other registers; it clears the
/// frame and link registers and calls `entry(arg)`, which never returns (`brk` if it did).
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
        "svc #0",
        "cbnz x0, 2f",
        "mov x29, xzr",
        "mov x30, xzr",
        "mov x0, x9",
        "blr x10",
        "brk #0",
        "2:",
        in("x8") libc::SYS_clone3,
        inlateout("x0") args => ret,
        in("x1") size,
        in("x9") arg,
        in("x10") entry,
    );
    ret
}
