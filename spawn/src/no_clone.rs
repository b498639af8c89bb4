//! Platforms without Linux's `clone`: the clone strategies are not available, and forcing one
//! is an `Unsupported` error.

use std::io;

use super::dispatch::unsupported;
use super::plan::Prepared;
use super::strategy::Strategy;

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

/// Always `Ok(None)`: this platform has no clone3.
pub(super) fn clone3(_: &mut Prepared) -> io::Result<Option<libc::pid_t>> {
    Ok(None)
}

/// Always an `Unsupported` error.
pub(super) fn clone_vfork(_: &mut Prepared) -> io::Result<libc::pid_t> {
    Err(unsupported(
        Strategy::CloneVfork,
        "run: clone is Linux-only",
    ))
}
