//! Dynamic builds: ask the loaded libc with `dlsym(RTLD_DEFAULT)`.

use std::ffi::{c_void, CString};

use super::How;

pub(super) const HOW: How = How::Dlsym;
pub(super) const UNKNOWN_REASON: Option<&str> = None;

pub(super) fn find(name: &str) -> Option<*mut c_void> {
    let cname = CString::new(name).ok()?;
    // SAFETY: dlsym only reads the NUL-terminated name; RTLD_DEFAULT searches the global
    // scope. A NULL result means "not found" (none of these symbols is NULL-valued).
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, cname.as_ptr()) };
    (!p.is_null()).then_some(p)
}
