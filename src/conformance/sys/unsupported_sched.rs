//! Platforms without the sched spawn attributes (macOS: `#if 0` in `<spawn.h>`).

use libc::c_int;

use super::Attr;

pub const SCHED_POLICIES: &[(&str, c_int)] = &[];

/// Always unsupported here: the caller reports `unsupported`.
///
/// # Safety
/// Nothing is dereferenced; `unsafe` only matches the other platforms.
pub unsafe fn set_sched(_attr: *mut Attr, _policy: c_int, _priority: c_int) -> Result<(), c_int> {
    Err(libc::ENOSYS)
}

/// Always unsupported here, as [`set_sched`].
///
/// # Safety
/// Nothing is dereferenced; `unsafe` only matches the other platforms.
pub unsafe fn get_sched(_attr: *const Attr) -> Result<(c_int, c_int), c_int> {
    Err(libc::ENOSYS)
}
