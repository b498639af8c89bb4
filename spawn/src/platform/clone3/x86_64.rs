//! The clone3 trampoline for x86_64.

use std::arch::asm;
use std::ffi::c_void;

use super::Entry;
use crate::sys::linux_kernel::CloneArgs;

/// This file is a trampoline.
pub(crate) const HAS_TRAMPOLINE: bool = true;

/// `clone3(args, size)`. Returns the child's pid or `-errno` in the parent. The child starts
/// on the stack given in `args` with every register as the parent had it except `rax` (0) and
/// `rsp`; it clears the frame pointer and calls `entry(arg)`, which never returns (`ud2` if it
/// did). The child never executes a Rust instruction of this frame.
///
/// On x32 (`gnux32`: 32-bit pointers and `usize`) the kernel and the `call` read all 64 bits
/// of each register, while Rust leaves the upper half of a 32-bit operand undefined, so every
/// operand is zero-extended to `u64` first.
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
        "syscall",
        "test rax, rax",
        "jnz 2f",
        "xor ebp, ebp",
        "mov rdi, r12",
        "call r13",
        "ud2",
        "2:",
        inlateout("rax") libc::SYS_clone3 as u64 => ret,
        in("rdi") args as usize as u64,
        in("rsi") size as u64,
        in("r12") arg as usize as u64,
        in("r13") entry as usize as u64,
        lateout("rcx") _,
        lateout("r11") _,
    );
    ret
}
