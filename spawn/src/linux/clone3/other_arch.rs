//! Architectures without a clone3 trampoline here: clone3 is reported as refused (`ENOSYS`),
//! so `Auto` uses `clone_vfork`.

use std::ffi::c_void;

use super::Entry;
use crate::sys::linux_kernel::CloneArgs;

/// Always `-ENOSYS`.
///
/// # Safety
/// None needed; kept `unsafe` to match the trampolines.
pub(super) unsafe fn raw_clone3(_: *const CloneArgs, _: usize, _: Entry, _: *mut c_void) -> i64 {
    -i64::from(libc::ENOSYS)
}
