//! Run-time lookup of functions newer than the build baseline.

use std::ffi::CStr;

/// The function `name` in the running process, or `None`.
///
/// # Safety
/// `F` must be the function pointer type of the symbol `name`.
pub unsafe fn lookup<F: Copy>(name: &CStr) -> Option<F> {
    assert_eq!(
        std::mem::size_of::<F>(),
        std::mem::size_of::<*mut libc::c_void>()
    );
    let sym = libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr());
    if sym.is_null() {
        None
    } else {
        Some(std::mem::transmute_copy::<*mut libc::c_void, F>(&sym))
    }
}
