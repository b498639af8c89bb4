//! `uname(2)`, as owned strings.

use std::ffi::CStr;

/// The fields this crate reports.
#[derive(Debug, Clone)]
pub(super) struct Uname {
    /// `Linux`, `Darwin`, `FreeBSD`, `CYGWIN_NT-10.0-19045`, ...
    #[cfg_attr(not(target_os = "cygwin"), allow(dead_code))]
    pub sysname: String,
    /// `uname -r`.
    pub release: String,
}

/// `None` only if `uname` itself fails.
pub(super) fn uname() -> Option<Uname> {
    let mut u = std::mem::MaybeUninit::<libc::utsname>::zeroed();
    // SAFETY: uname fills the struct it is given; every field is NUL-terminated on success.
    unsafe {
        if libc::uname(u.as_mut_ptr()) != 0 {
            return None;
        }
        let u = u.assume_init();
        let text = |field: &[libc::c_char]| {
            CStr::from_ptr(field.as_ptr())
                .to_string_lossy()
                .into_owned()
        };
        Some(Uname {
            sysname: text(&u.sysname),
            release: text(&u.release),
        })
    }
}
