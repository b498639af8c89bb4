//! Which spawn functions, flags and kernel features this process can use, found at run time.
//!
//! [`detect`] returns one [`Capability`] per name, each saying how it was found (`how`):
//!
//! | `how` | meaning |
//! |---|---|
//! | `dlsym` | looked up in the loaded libc with `dlsym(RTLD_DEFAULT)` |
//! | `static-link` | static build: a build-time link probe against the target libc found it (or not) |
//! | `static-link-unprobed` | static build whose link probe did not work: unknown, reported absent |
//! | `setflags-accepted` | `posix_spawnattr_setflags` took the flag's value |
//! | `setflags-<ERRNO>` | `posix_spawnattr_setflags` refused it (`setflags-EINVAL`) |
//! | `not-declared-for-target` | neither the `libc` crate nor this crate knows the value here |
//! | `kernel-syscall` | a syscall that creates nothing answered (not `ENOSYS`) |
//! | `kernel-clone3-child` | `clone3` with the flag created a child, and what the flag promises was seen |
//! | `kernel-ioctl` | a pidfd ioctl answered (`PIDFD_GET_INFO`): filled what was asked, or an errno that says the kernel lacks it |
//! | `crate-arch` | compiled into this crate for the target architecture or not (`crate.clone3`: a clone3 trampoline), whatever the kernel has |
//! | `kernel-unprobed` | the probe needs a call this process cannot make (`CLONE_PIDFD` is probed with clone3): unknown |
//! | `kernel-refused` | the probe was refused (`EPERM`, `EACCES`: a seccomp filter, an LSM, a missing privilege): unknown, not absent |
//! | `kernel-probe-failed` | the kernel probe itself failed for want of resources (`EAGAIN`, `EMFILE`, `ENFILE`, `ENOMEM`): unknown, so `available` (false) means nothing |
//!
//! An accepted flag is not yet a working flag: the conformance suite checks behaviour.

mod flags;
mod functions;

// Not on Android: its seccomp policy kills a process with SIGSYS for a system call it does
// not allow (golang/go#69065), and nothing there needs the answers (the clone strategies
// are Linux-only).
#[cfg_attr(target_os = "linux", path = "kernel_linux.rs")]
#[cfg_attr(not(target_os = "linux"), path = "kernel_none.rs")]
mod kernel;

use std::collections::BTreeMap;

/// One function, flag or kernel feature as this process found it.
///
/// ```
/// let caps = spawnmatrix_spawn::caps::detect();
/// let spawn = &caps["posix_spawn"];
/// assert!(spawn.available);
/// println!("posix_spawn found by {}", spawn.how);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capability {
    /// Whether this process can use it.
    pub available: bool,
    /// How that was found: one of the `how` values in the table above (`dlsym`, ...).
    pub how: String,
    /// What presence alone does not tell, or why it is absent (`clone3 answered EPERM`).
    pub note: Option<String>,
}

/// Capabilities by name: function (`posix_spawn_file_actions_addchdir_np`), flag
/// (`POSIX_SPAWN_SETSID`) or kernel feature (`clone3`).
pub type Capabilities = BTreeMap<String, Capability>;

/// Probes everything this module knows about. Cheap (one short-lived child on Linux).
///
/// ```
/// use spawnmatrix_spawn::caps;
///
/// for (name, cap) in caps::detect() {
///     let note = cap.note.as_deref().unwrap_or("");
///     println!("{name:45} {:5} {:22} {note}", cap.available, cap.how);
/// }
/// ```
pub fn detect() -> Capabilities {
    let mut caps = Capabilities::new();
    caps.extend(functions::detect());
    caps.extend(flags::detect());
    caps.extend(kernel::detect());
    caps
}

/// The `how` of a kernel feature whose probe failed transiently: unknown, not absent.
pub const PROBE_FAILED: &str = "kernel-probe-failed";
/// The `how` of a kernel feature this process could not probe: unknown, not absent.
pub const UNPROBED: &str = "kernel-unprobed";
/// The `how` of a kernel feature whose probe was refused (a filter, an LSM, a privilege):
/// unknown, not absent.
pub const REFUSED: &str = "kernel-refused";

/// A capability as observed in this process.
fn observed(available: bool, how: impl Into<String>, note: Option<String>) -> Capability {
    Capability {
        available,
        how: how.into(),
        note,
    }
}

#[cfg(test)]
mod tests;
