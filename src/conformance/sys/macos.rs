//! macOS libSystem: extensions by `dlsym`; the sched spawn attributes are not supported
//! (`#if 0` in `<spawn.h>`), and the `libc` crate declares no SETSID for Apple.

use libc::c_int;

use super::{Attr, Ext, LibcId};

pub const SPAWN_FLAGS: &[(&str, c_int)] = &[];

pub const SCHED_POLICIES: &[(&str, c_int)] = &[];

/// Always unsupported here: the caller reports `unsupported`.
pub fn set_sched(_attr: *mut Attr, _policy: c_int, _priority: c_int) -> Result<(), c_int> {
    Err(libc::ENOSYS)
}

pub fn ext() -> Ext {
    Ext::by_dlsym()
}

pub fn libc_identity() -> LibcId {
    LibcId {
        name: "libSystem",
        version: None,
        family: "macos",
    }
}
