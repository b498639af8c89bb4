//! Architectures without a clone3 trampoline in this crate: the strategy is forbidden before
//! any call (`clone3_forbidden`), so `Auto` uses `clone_vfork` and a forced `Clone3` is
//! `Unsupported` saying the crate lacks it, whatever the kernel answers.

use std::ffi::c_void;

use super::Entry;
use crate::sys::linux_kernel::CloneArgs;

/// No trampoline here: clone3 is never called.
pub(crate) const HAS_TRAMPOLINE: bool = false;

/// Never called (`HAS_TRAMPOLINE` forbids the strategy); `-ENOSYS` if it were.
///
/// # Safety
/// None needed; kept `unsafe` to match the trampolines.
pub(crate) unsafe fn raw_clone3(_: *const CloneArgs, _: usize, _: Entry, _: *mut c_void) -> i64 {
    -i64::from(libc::ENOSYS)
}
