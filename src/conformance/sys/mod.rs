//! What differs by platform for the engine: the libc's identity and the scheduling policies
//! (one module per platform; `cfg` lives only here). The newer spawn functions come from
//! [`crate::sys::spawn_ext`], looked up one name at a time so the `_np` and POSIX.1-2024
//! names can be told apart.

use libc::posix_spawnattr_t;

pub use crate::sys::spawn_ext::{AddFdFn, AddPathFn};

#[cfg(any(target_os = "linux", target_os = "freebsd"))]
mod sched;
#[cfg(any(target_os = "linux", target_os = "freebsd"))]
pub use sched::set_sched;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::{open_fds, SCHED_POLICIES};

// The portable scan; Linux falls back to it when /proc is not mounted.
mod fd_scan;
#[cfg(not(target_os = "linux"))]
pub use fd_scan::open_fds;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod linux_gnu;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub use linux_gnu::libc_identity;

#[cfg(all(target_os = "linux", target_env = "musl"))]
mod linux_musl;
#[cfg(all(target_os = "linux", target_env = "musl"))]
pub use linux_musl::libc_identity;

#[cfg(target_os = "freebsd")]
mod freebsd;
#[cfg(target_os = "freebsd")]
pub use freebsd::{libc_identity, SCHED_POLICIES};

#[cfg(target_vendor = "apple")]
mod macos;
#[cfg(target_vendor = "apple")]
pub use macos::{libc_identity, set_sched, SCHED_POLICIES};

/// The spawn functions that not every libc has; `None` when absent here.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ext {
    pub addchdir_np: Option<AddPathFn>,
    pub addfchdir_np: Option<AddFdFn>,
    pub addchdir: Option<AddPathFn>,
    pub addfchdir: Option<AddFdFn>,
    pub addclosefrom_np: Option<AddFdFn>,
}

/// The address of `name` typed as `F`.
///
/// # Safety
/// `F` must be the C signature of `name`.
unsafe fn typed<F: Copy>(name: &'static str) -> Option<F> {
    let found = crate::sys::spawn_ext::find_symbol(name)?;
    Some(std::mem::transmute_copy::<*mut libc::c_void, F>(
        &found.func,
    ))
}

/// Looks every function up by its exact name.
pub fn ext() -> Ext {
    // SAFETY: each name gets the signature its libc headers declare.
    unsafe {
        Ext {
            addchdir_np: typed("posix_spawn_file_actions_addchdir_np"),
            addfchdir_np: typed("posix_spawn_file_actions_addfchdir_np"),
            addchdir: typed("posix_spawn_file_actions_addchdir"),
            addfchdir: typed("posix_spawn_file_actions_addfchdir"),
            addclosefrom_np: typed("posix_spawn_file_actions_addclosefrom_np"),
        }
    }
}

/// The libc this process runs on: name (`glibc`, `musl`, `libSystem`, `freebsd-libc`) and
/// version when it can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibcId {
    pub name: &'static str,
    pub version: Option<String>,
    /// The `targets/` family whose expectation files apply.
    pub family: &'static str,
}

/// Keeps the attribute type named for the platform modules' signatures.
pub type Attr = posix_spawnattr_t;
