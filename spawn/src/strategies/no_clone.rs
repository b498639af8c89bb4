//! Platforms without Linux's `clone`: the clone strategies are not available, and forcing one
//! is an `Unsupported` error.

use std::io;

use super::Spawned;
use crate::plan::Prepared;

const LINUX_ONLY: &str = "run: clone is Linux-only";

/// No `clone(CLONE_VM|CLONE_VFORK)` here.
pub(crate) fn clone_vfork_supported() -> bool {
    false
}

/// No clone3 here.
pub(crate) fn clone3_supported() -> bool {
    false
}

/// No clone3 here.
pub(crate) fn clone3_maybe_supported() -> bool {
    false
}

/// Always: clone is Linux-only.
pub(crate) fn clone3_forbidden() -> Option<&'static str> {
    Some(LINUX_ONLY)
}

/// Always: clone is Linux-only.
pub(crate) fn clone_vfork_forbidden() -> Option<&'static str> {
    Some(LINUX_ONLY)
}

/// Always `Ok(None)`: this platform has no clone3.
pub(crate) fn clone3(_: &mut Prepared) -> io::Result<Option<Spawned>> {
    Ok(None)
}

/// Always `Ok(None)`: this platform has no clone.
pub(crate) fn clone_vfork(_: &mut Prepared) -> io::Result<Option<Spawned>> {
    Ok(None)
}
