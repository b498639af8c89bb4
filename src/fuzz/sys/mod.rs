//! The platform-specific pieces of the fuzz executors, one module per platform: how the
//! optional file actions are reached (link or `dlsym`), whether `POSIX_SPAWN_SETSID` exists,
//! and how an fd is moved to a fixed number close-on-exec without a window.

use libc::{c_char, c_int, posix_spawn_file_actions_t};

/// `posix_spawn_file_actions_add(f)chdir_np`-shaped functions.
pub type AddChdir = unsafe extern "C" fn(*mut posix_spawn_file_actions_t, *const c_char) -> c_int;
pub type AddFd = unsafe extern "C" fn(*mut posix_spawn_file_actions_t, c_int) -> c_int;

/// The optional spawn functions this process can call.
#[derive(Clone, Copy)]
pub struct Extensions {
    pub addchdir: Option<AddChdir>,
    pub addfchdir: Option<AddFd>,
    pub addclosefrom: Option<AddFd>,
    /// The `POSIX_SPAWN_SETSID` flag value, where the platform has one.
    pub setsid_flag: Option<libc::c_short>,
}

#[cfg(all(target_os = "linux", target_env = "musl"))]
mod musl;
#[cfg(all(target_os = "linux", target_env = "musl"))]
pub use musl::extensions;

#[cfg(all(target_os = "linux", not(target_env = "musl")))]
mod glibc;
#[cfg(all(target_os = "linux", not(target_env = "musl")))]
pub use glibc::extensions;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::{dup_cloexec_to, live_children, pipe_cloexec};

#[cfg(not(target_os = "linux"))]
mod bsd;
#[cfg(not(target_os = "linux"))]
pub use bsd::{dup_cloexec_to, extensions, live_children, pipe_cloexec};

#[cfg(not(all(target_os = "linux", target_env = "musl")))]
mod dl;
