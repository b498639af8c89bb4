//! The platform facts the spawn code needs, below every other layer but `sys`: one file per
//! platform family, and the libc conventions (`errno`), reaping (`wait`), pidfds at the
//! system-call level (`pidfd`), the clone3 trampolines (`clone3`) and the running glibc's
//! version (`glibc_version`).
//!
//! Each provides: `NSIG` (one above the highest signal number), `pipe_cloexec()`,
//! `POSIX_SPAWN_RELATIVE_AFTER_CHDIR` (whether `posix_spawn` resolves a relative program path
//! after its chdir file action, observed or read in its source) and `default_path()` (the
//! search path `execvp` uses when the environment has no `PATH`; a `DEFAULT_PATH` constant
//! where it does not depend on the caller).

#[cfg(any(target_os = "linux", target_os = "android"))]
mod linux;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) use linux::*;

#[cfg(target_os = "freebsd")]
mod freebsd;
#[cfg(target_os = "freebsd")]
pub(crate) use freebsd::*;

#[cfg(target_vendor = "apple")]
mod apple;
#[cfg(target_vendor = "apple")]
pub(crate) use apple::*;

#[cfg(target_os = "cygwin")]
mod cygwin;
#[cfg(target_os = "cygwin")]
pub(crate) use cygwin::*;

#[cfg(target_os = "netbsd")]
mod netbsd;
#[cfg(target_os = "netbsd")]
pub(crate) use netbsd::*;

#[cfg(target_os = "openbsd")]
mod openbsd;
#[cfg(target_os = "openbsd")]
pub(crate) use openbsd::*;

#[cfg(target_os = "dragonfly")]
mod dragonfly;
#[cfg(target_os = "dragonfly")]
pub(crate) use dragonfly::*;

#[cfg(any(target_os = "illumos", target_os = "solaris"))]
mod solarish;
#[cfg(any(target_os = "illumos", target_os = "solaris"))]
pub(crate) use solarish::*;

/// Not known on the families without a constructor that records the initial environment
/// (`initial_env.rs`), where nothing asks.
#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_vendor = "apple"
)))]
#[allow(dead_code)]
pub(crate) fn single_threaded() -> bool {
    false
}

/// No parent-death signal on the other families.
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
pub(crate) fn parent_death_signal() -> Option<libc::c_int> {
    None
}

/// The search path without `PATH` where it is one constant.
#[cfg(not(any(target_os = "illumos", target_os = "solaris")))]
pub(crate) fn default_path() -> &'static [u8] {
    DEFAULT_PATH
}

/// `NSIG` for the BSDs and illumos, whose `sigset_t` is a plain bit set: one above the
/// highest signal it can hold. A number the kernel does not know is refused by `sigaction`,
/// which the child's reset loop skips, so the bound only has to be high enough.
#[cfg(any(
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly",
    target_os = "illumos",
    target_os = "solaris"
))]
const fn bsd_nsig() -> libc::c_int {
    (8 * std::mem::size_of::<libc::sigset_t>()) as libc::c_int + 1
}

#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "cygwin",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly",
    target_os = "illumos",
    target_os = "solaris"
))]
mod pipe2;
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "cygwin",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly",
    target_os = "illumos",
    target_os = "solaris"
))]
pub(crate) use pipe2::*;

// `has_handler(sig)` and `set_default(sig)` for the child: the raw system call where a
// `CLONE_VM` child may run them (the build script decides; see `build/raw_sigaction.rs`),
// else libc `sigaction`.

/// Nothing to look up before closing fds: no libc function is found at run time here.
#[cfg(not(target_os = "freebsd"))]
pub(crate) fn look_up_close_range() {}

// The signal calls both sides make: the child resets dispositions and sets its mask, the
// parent blocks every signal around a clone and reads dispositions for `posix_spawn`. Raw
// `rt_sigaction`/`rt_sigprocmask` where this build declares the kernel's `struct sigaction`
// (`cfg(spawnmatrix_raw_sigaction)`, set by `build.rs`), libc's otherwise (only a forked
// child runs those).
#[cfg(spawnmatrix_raw_sigaction)]
mod sigaction_raw;
#[cfg(spawnmatrix_raw_sigaction)]
pub(crate) use sigaction_raw::*;
#[cfg(not(spawnmatrix_raw_sigaction))]
mod sigaction_libc;
#[cfg(not(spawnmatrix_raw_sigaction))]
pub(crate) use sigaction_libc::*;
#[cfg(spawnmatrix_raw_sigaction)]
mod sigmask_raw;
#[cfg(spawnmatrix_raw_sigaction)]
pub(crate) use sigmask_raw::*;
#[cfg(not(spawnmatrix_raw_sigaction))]
mod sigmask_libc;
#[cfg(not(spawnmatrix_raw_sigaction))]
pub(crate) use sigmask_libc::*;

pub(crate) mod errno;
pub(crate) mod fd;
pub(crate) mod wait;

#[cfg(target_os = "linux")]
#[path = "pidfd_linux.rs"]
pub(crate) mod pidfd;
#[cfg(not(target_os = "linux"))]
#[path = "pidfd_none.rs"]
pub(crate) mod pidfd;

#[cfg(target_os = "linux")]
pub(crate) mod clone3;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) mod glibc_version;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) mod glibc_version {
    /// Not glibc: no old-glibc workaround applies.
    pub(crate) fn older_than(_: u32, _: u32) -> bool {
        false
    }
}
