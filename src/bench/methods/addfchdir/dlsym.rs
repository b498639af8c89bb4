//! Dynamic C libraries: look the symbol up with dlsym.

use super::AddFchdir;

pub fn resolve() -> Option<AddFchdir> {
    // SAFETY: dlsym with a NUL-terminated name; a non-NULL result is this function, whose C
    // prototype matches `AddFchdir`.
    unsafe {
        let sym = libc::dlsym(
            libc::RTLD_DEFAULT,
            c"posix_spawn_file_actions_addfchdir_np".as_ptr(),
        );
        (!sym.is_null()).then(|| std::mem::transmute::<*mut libc::c_void, AddFchdir>(sym))
    }
}
