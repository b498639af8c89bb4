//! glibc: the version comes from `gnu_get_libc_version`.

use std::ffi::CStr;

use super::LibcId;

pub fn libc_identity() -> LibcId {
    // SAFETY: returns a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(libc::gnu_get_libc_version()) };
    LibcId {
        name: "glibc",
        version: Some(version.to_string_lossy().into_owned()),
        family: "linux-glibc",
    }
}
