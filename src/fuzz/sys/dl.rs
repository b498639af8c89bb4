//! Run-time lookup of spawn functions newer than the build baseline (never linked hard).

use std::ffi::CStr;

use super::{AddChdir, AddFd};

fn lookup(name: &CStr) -> *mut libc::c_void {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads the name.
    unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) }
}

/// The function called `name`, if this process's libc has it.
pub fn add_chdir(name: &CStr) -> Option<AddChdir> {
    let p = lookup(name);
    // SAFETY: the symbol has this signature in every libc that exports it under this name.
    (!p.is_null()).then(|| unsafe { std::mem::transmute::<*mut libc::c_void, AddChdir>(p) })
}

/// The function called `name`, if this process's libc has it.
pub fn add_fd(name: &CStr) -> Option<AddFd> {
    let p = lookup(name);
    // SAFETY: the symbol has this signature in every libc that exports it under this name.
    (!p.is_null()).then(|| unsafe { std::mem::transmute::<*mut libc::c_void, AddFd>(p) })
}
