//! Platforms without Linux's `clone`: the clone strategies are not available, and forcing one
//! is an `Unsupported` error.

use std::io;

use super::plan::Prepared;

const LINUX_ONLY: &str = "run: clone is Linux-only";

/// No `clone(CLONE_VM|CLONE_VFORK)` here.
pub(super) fn clone_vfork_supported() -> bool {
    false
}

/// No clone3 here.
pub(super) fn clone3_supported() -> bool {
    false
}

/// No clone3 here.
pub(super) fn clone3_maybe_supported() -> bool {
    false
}

/// Always: clone is Linux-only.
pub(super) fn clone3_forbidden() -> Option<&'static str> {
    Some(LINUX_ONLY)
}

/// Always: clone is Linux-only.
pub(super) fn clone_vfork_forbidden() -> Option<&'static str> {
    Some(LINUX_ONLY)
}

/// Always `Ok(None)`: this platform has no clone3.
pub(super) fn clone3(_: &mut Prepared) -> io::Result<Option<libc::pid_t>> {
    Ok(None)
}

/// Always `Ok(None)`: this platform has no clone.
pub(super) fn clone_vfork(_: &mut Prepared) -> io::Result<Option<libc::pid_t>> {
    Ok(None)
}
