//! The platform-specific pieces of the fuzz and load drivers, one module per platform: how an
//! fd is moved to a fixed number close-on-exec, a close-on-exec pipe, and listing this
//! process's children. The optional spawn functions and flag values come from `crate::sys`.

use crate::sys::spawn_ext::{self, AddFdFn, AddPathFn};

/// The optional spawn functions this process can call.
#[derive(Clone, Copy)]
pub struct Extensions {
    pub addchdir: Option<AddPathFn>,
    pub addfchdir: Option<AddFdFn>,
    pub addclosefrom: Option<AddFdFn>,
    /// The `POSIX_SPAWN_SETSID` flag value, where it is known for this target.
    pub setsid_flag: Option<libc::c_short>,
}

/// What this process has, looked up through `crate::sys` (run time, or link probes for
/// static builds).
pub fn extensions() -> Extensions {
    Extensions {
        addchdir: spawn_ext::addchdir().map(|f| f.func),
        addfchdir: spawn_ext::addfchdir().map(|f| f.func),
        addclosefrom: spawn_ext::addclosefrom().map(|f| f.func),
        setsid_flag: crate::sys::flags::by_name("POSIX_SPAWN_SETSID").map(|f| f.value),
    }
}

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::{dup_cloexec_to, live_children, open_fds, pipe_cloexec, rss_bytes, scratch_dir};

#[cfg(not(target_os = "linux"))]
mod other;
#[cfg(not(target_os = "linux"))]
pub use other::{dup_cloexec_to, live_children, open_fds, pipe_cloexec, rss_bytes, scratch_dir};

/// The fd flags of `fd`, or `None` when it is not open.
pub fn fd_flags(fd: i32) -> Option<i32> {
    // SAFETY: F_GETFD only queries.
    let f = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    (f >= 0).then_some(f)
}

/// The open fds below `sysconf(_SC_OPEN_MAX)` (at most 2^20), by asking each number.
#[cfg_attr(target_os = "linux", allow(dead_code))]
fn scan_fds() -> Vec<i32> {
    // SAFETY: sysconf has no preconditions.
    let max = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) }.clamp(256, 1 << 20) as i32;
    (0..max).filter(|&fd| fd_flags(fd).is_some()).collect()
}
