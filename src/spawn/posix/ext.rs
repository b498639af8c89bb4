//! The chdir file actions, which are newer than the build baseline: found at run time where
//! the libc is dynamic, linked where it is static (musl), so one binary runs on old and new
//! libcs alike.

/// `posix_spawn_file_actions_addchdir[_np]`.
pub(super) type AddChdir =
    unsafe extern "C" fn(*mut libc::posix_spawn_file_actions_t, *const libc::c_char) -> libc::c_int;

/// `posix_spawn_file_actions_addfchdir[_np]`.
pub(super) type AddFchdir =
    unsafe extern "C" fn(*mut libc::posix_spawn_file_actions_t, libc::c_int) -> libc::c_int;

#[cfg(not(all(target_os = "linux", target_env = "musl")))]
mod dynamic;
#[cfg(not(all(target_os = "linux", target_env = "musl")))]
pub(super) use dynamic::{addchdir, addfchdir};

#[cfg(all(target_os = "linux", target_env = "musl"))]
mod static_musl;
#[cfg(all(target_os = "linux", target_env = "musl"))]
pub(super) use static_musl::{addchdir, addfchdir};
