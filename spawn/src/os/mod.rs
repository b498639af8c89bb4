//! The few platform facts the spawn code needs, one file per platform family.
//!
//! Each provides: `NSIG` (one above the highest signal number), `pipe_cloexec()` and
//! `POSIX_SPAWN_RELATIVE_AFTER_CHDIR` (whether `posix_spawn` resolves a relative program path
//! after its chdir file action, observed or read in its source).

#[cfg(any(target_os = "linux", target_os = "android"))]
mod linux;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) use linux::*;

#[cfg(target_os = "freebsd")]
mod freebsd;
#[cfg(target_os = "freebsd")]
pub(super) use freebsd::*;

#[cfg(target_vendor = "apple")]
mod apple;
#[cfg(target_vendor = "apple")]
pub(super) use apple::*;

#[cfg(target_os = "cygwin")]
mod cygwin;
#[cfg(target_os = "cygwin")]
pub(super) use cygwin::*;

#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "cygwin"
))]
mod pipe2;
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "cygwin"
))]
pub(super) use pipe2::*;

// `has_handler(sig)` and `set_default(sig)` for the child: the raw system call where a
// `CLONE_VM` child may run them (the build script decides; see `build/raw_sigaction.rs`),
// else libc `sigaction`.
#[cfg(spawnmatrix_raw_sigaction)]
mod sigaction_raw;
#[cfg(spawnmatrix_raw_sigaction)]
pub(super) use sigaction_raw::*;

#[cfg(not(spawnmatrix_raw_sigaction))]
mod sigaction_libc;
#[cfg(not(spawnmatrix_raw_sigaction))]
pub(super) use sigaction_libc::*;

// `block_all()`, `restore(old)` and `set_mask(set)`: the raw `rt_sigprocmask` where the kernel's
// signal set is declared (the same cfg), so libc-internal signals are blocked too; else libc.
#[cfg(spawnmatrix_raw_sigaction)]
mod sigmask_raw;
#[cfg(spawnmatrix_raw_sigaction)]
pub(super) use sigmask_raw::*;

#[cfg(not(spawnmatrix_raw_sigaction))]
mod sigmask_libc;
#[cfg(not(spawnmatrix_raw_sigaction))]
pub(super) use sigmask_libc::*;
