//! What differs by platform for the engine: scheduling policies, listing open fds, signal
//! and flag names, the libc's reserved signals (one module per platform; `cfg` lives only
//! here), and which expectation family this libc belongs to (from [`crate::platform`]). The newer spawn functions come from
//! [`crate::sys::spawn_ext`], looked up one name at a time so the `_np` and POSIX.1-2024
//! names can be told apart.

use libc::posix_spawnattr_t;

pub use crate::sys::spawn_ext::{AddFdFn, AddPathFn};

#[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "cygwin"))]
mod sched;
#[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "cygwin"))]
pub use sched::{get_sched, set_sched};

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::{open_fds, realtime_signals, EXTRA_OPEN_FLAGS, EXTRA_SIGNALS, SCHED_POLICIES};

#[cfg(not(target_os = "linux"))]
mod other_names;
#[cfg(not(target_os = "linux"))]
pub use other_names::{realtime_signals, EXTRA_OPEN_FLAGS, EXTRA_SIGNALS};

#[cfg(spawnmatrix_raw_sigaction)]
mod raw_reserved;
#[cfg(spawnmatrix_raw_sigaction)]
pub use raw_reserved::reset_reserved_signals;
#[cfg(not(spawnmatrix_raw_sigaction))]
mod no_raw_reserved;
#[cfg(not(spawnmatrix_raw_sigaction))]
pub use no_raw_reserved::reset_reserved_signals;

// The portable scan; Linux falls back to it when /proc is not mounted.
mod fd_scan;
#[cfg(not(target_os = "linux"))]
pub use fd_scan::open_fds;

#[cfg(any(target_os = "freebsd", target_os = "cygwin"))]
mod posix_sched_policies;
#[cfg(any(target_os = "freebsd", target_os = "cygwin"))]
pub use posix_sched_policies::SCHED_POLICIES;

#[cfg(not(any(target_os = "linux", target_os = "freebsd", target_os = "cygwin")))]
mod unsupported_sched;
#[cfg(not(any(target_os = "linux", target_os = "freebsd", target_os = "cygwin")))]
pub use unsupported_sched::{get_sched, set_sched, SCHED_POLICIES};

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

/// The libc this process runs on, as [`crate::platform`] names it, and its exact version
/// when known (an inferred range such as musl's `>=1.2.5` does not name a file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibcId {
    pub name: String,
    pub version: Option<String>,
    /// The libc's version as detected (`>=1.2.5` for musl, say), and the OS release: what a
    /// family's claims compare against ([`super::claims`]).
    pub raw_version: Option<String>,
    pub os_version: Option<String>,
    /// The `targets/` family whose expectation files apply.
    pub family: &'static str,
}

/// The `targets/` family of each libc name.
const FAMILIES: &[(&str, &str)] = &[
    ("glibc", "linux-glibc"),
    ("musl", "linux-musl"),
    ("libSystem", "macos"),
    ("freebsd-libc", "freebsd"),
    ("cygwin", "cygwin"),
    ("bionic", "android"),
];

/// This process's libc.
pub fn libc_identity() -> LibcId {
    let platform = crate::platform::detect();
    let libc = platform.libc;
    let family = FAMILIES
        .iter()
        .find(|(name, _)| *name == libc.name)
        .map_or("unknown", |(_, family)| *family);
    let exact = |v: &String| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.');
    LibcId {
        raw_version: libc.version.clone(),
        version: libc.version.filter(exact),
        os_version: platform.os_version,
        name: libc.name,
        family,
    }
}

/// The highest signal number this libc's `sigset_t` takes (64 on Linux, 31 on macOS): the
/// first number from the top that `sigaddset` accepts.
pub fn max_signal() -> libc::c_int {
    // SAFETY: the set is initialised by sigemptyset before sigaddset writes to it.
    (1..=128)
        .rev()
        .find(|&n| unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, n) == 0
        })
        .unwrap_or(31)
}

/// The signal numbers up to [`max_signal`] that this libc keeps for itself: its `sigaction`
/// refuses to report them (glibc's 32 and 33, musl's 32 to 34; none on most systems).
pub fn libc_reserved_signals() -> Vec<libc::c_int> {
    (1..=max_signal())
        .filter(|&n| {
            // SAFETY: a query into a local; nothing is installed.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                libc::sigaction(n, std::ptr::null(), &mut old) != 0
            }
        })
        .collect()
}

/// Keeps the attribute type named for the platform modules' signatures.
pub type Attr = posix_spawnattr_t;
