//! Finding `posix_spawn_file_actions_addfchdir_np` at run time: it is newer than the build
//! baseline on glibc (2.29), macOS (10.15) and FreeBSD (14), so it is never linked hard.

use std::os::raw::c_int;

#[cfg(target_env = "musl")]
#[path = "musl.rs"]
mod sys;
#[cfg(not(target_env = "musl"))]
#[path = "dlsym.rs"]
mod sys;

/// The function's type.
pub type AddFchdir = unsafe extern "C" fn(*mut libc::posix_spawn_file_actions_t, c_int) -> c_int;

/// The function, when this process's C library has it.
pub fn resolve() -> Option<AddFchdir> {
    sys::resolve()
}
