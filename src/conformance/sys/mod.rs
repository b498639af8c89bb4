//! What differs by platform for the engine: the libc's identity, the spawn functions newer
//! than the build baseline, spawn flags and scheduling policies. `cfg` lives only here; each
//! platform gets one module.

use libc::{c_char, c_int, posix_spawn_file_actions_t, posix_spawnattr_t};

mod dl;

#[cfg(any(target_os = "linux", target_os = "freebsd"))]
mod sched;
#[cfg(any(target_os = "linux", target_os = "freebsd"))]
pub use sched::set_sched;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::{SCHED_POLICIES, SPAWN_FLAGS};

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod linux_gnu;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub use linux_gnu::{ext, libc_identity};

#[cfg(all(target_os = "linux", target_env = "musl"))]
mod linux_musl;
#[cfg(all(target_os = "linux", target_env = "musl"))]
pub use linux_musl::{ext, libc_identity};

#[cfg(target_os = "freebsd")]
mod freebsd;
#[cfg(target_os = "freebsd")]
pub use freebsd::{ext, libc_identity, SCHED_POLICIES, SPAWN_FLAGS};

#[cfg(target_vendor = "apple")]
mod macos;
#[cfg(target_vendor = "apple")]
pub use macos::{ext, libc_identity, set_sched, SCHED_POLICIES, SPAWN_FLAGS};

/// `posix_spawn_file_actions_add{chdir,chdir_np}`.
pub type AddPathFn = unsafe extern "C" fn(*mut posix_spawn_file_actions_t, *const c_char) -> c_int;
/// `posix_spawn_file_actions_add{fchdir,fchdir_np,closefrom_np}`.
pub type AddFdFn = unsafe extern "C" fn(*mut posix_spawn_file_actions_t, c_int) -> c_int;

/// The spawn functions that not every libc has, found at run time; `None` when absent.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ext {
    pub addchdir_np: Option<AddPathFn>,
    pub addfchdir_np: Option<AddFdFn>,
    pub addchdir: Option<AddPathFn>,
    pub addfchdir: Option<AddFdFn>,
    pub addclosefrom_np: Option<AddFdFn>,
}

impl Ext {
    /// Every function looked up by name in the running process.
    fn by_dlsym() -> Ext {
        // SAFETY: each name is looked up with the signature its libc documents.
        unsafe {
            Ext {
                addchdir_np: dl::lookup(c"posix_spawn_file_actions_addchdir_np"),
                addfchdir_np: dl::lookup(c"posix_spawn_file_actions_addfchdir_np"),
                addchdir: dl::lookup(c"posix_spawn_file_actions_addchdir"),
                addfchdir: dl::lookup(c"posix_spawn_file_actions_addfchdir"),
                addclosefrom_np: dl::lookup(c"posix_spawn_file_actions_addclosefrom_np"),
            }
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

/// Keeps `posix_spawnattr_t` named for the platform modules' signatures.
pub type Attr = posix_spawnattr_t;
