//! glibc reports its own version.

use std::ffi::CStr;

use crate::report::Libc;

pub(super) fn libc() -> Libc {
    // SAFETY: gnu_get_libc_version (GLIBC_2.1) returns a static NUL-terminated string. In a
    // dynamic build it answers for the glibc loaded at run time, not the one built against.
    let version = unsafe { CStr::from_ptr(libc::gnu_get_libc_version()) };
    Libc {
        name: "glibc".to_string(),
        version: Some(version.to_string_lossy().into_owned()),
        detail: Some("gnu_get_libc_version()".to_string()),
    }
}
