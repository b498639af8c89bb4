//! glibc: the version from `gnu_get_libc_version`, extensions by `dlsym` (so one binary built
//! for an old baseline still finds what a newer glibc has).

use std::ffi::CStr;

use super::{Ext, LibcId};

pub fn ext() -> Ext {
    Ext::by_dlsym()
}

pub fn libc_identity() -> LibcId {
    // SAFETY: returns a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(libc::gnu_get_libc_version()) };
    LibcId {
        name: "glibc",
        version: Some(version.to_string_lossy().into_owned()),
        family: "linux-glibc",
    }
}
