//! The clone3 trampoline for riscv64.

use std::arch::asm;
use std::ffi::c_void;

use super::Entry;
use crate::sys::linux_kernel::CloneArgs;

/// This file is a trampoline.
pub(crate) const HAS_TRAMPOLINE: bool = true;

/// `clone3(args, size)`. Returns the child's pid or `-errno` in the parent. `ecall` takes the
/// number in `a7` and the arguments in `a0` and `a1`, returns in `a0` and keeps every other
/// register. The child starts on the stack given in `args` (16-byte aligned, as the psABI
/// wants: the top of an mmap'd region) with `a0` = 0 and the parent's other registers; it
/// clears the frame pointer and return address and calls `entry(arg)`, which never returns
/// (`unimp` if it did).
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
        "ecall",
        "bnez a0, 2f",
        "mv s0, zero",
        "mv ra, zero",
        "mv a0, a2",
        "jalr a3",
        "unimp",
        "2:",
        in("a7") libc::SYS_clone3,
        inlateout("a0") args => ret,
        in("a1") size,
        in("a2") arg,
        in("a3") entry,
    );
    ret
}
