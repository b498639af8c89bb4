//! Signal dispositions in the child through libc `sigaction`: on the platforms where the
//! child is made by `fork` (a copy of the parent's memory) or by the libc itself, and POSIX
//! lists `sigaction` as async-signal-safe.

use crate::platform::errno::errno;

/// Whether the child's signal calls are raw system calls: no, libc's `sigaction` may lock, so
/// no `CLONE_VM` child may run them. (Read by the clone strategies, which exist on Linux only.)
#[cfg(target_os = "linux")]
pub(crate) const RAW_SIGACTION: bool = false;

/// Whether `sig` has a handler installed (neither `SIG_DFL` nor `SIG_IGN`); `None` when the
/// libc refuses the number.
///
/// # Safety
/// Async-signal-safe; may run in a forked child.
pub(crate) unsafe fn has_handler(sig: libc::c_int) -> Option<bool> {
    let mut old: libc::sigaction = std::mem::zeroed();
    if libc::sigaction(sig, std::ptr::null(), &mut old) == -1 {
        return None;
    }
    Some(old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN)
}

/// Sets `sig` to `SIG_DFL` with an empty mask and no flags. Returns 0 or an errno.
///
/// # Safety
/// Async-signal-safe; may run in a forked child.
pub(crate) unsafe fn set_default(sig: libc::c_int) -> libc::c_int {
    // An all-zero sigaction is SIG_DFL (0), an empty mask and no flags.
    let dfl: libc::sigaction = std::mem::zeroed();
    if libc::sigaction(sig, &dfl, std::ptr::null_mut()) == -1 {
        errno()
    } else {
        0
    }
}

/// Nothing: the libc-reserved signals are reached only by the raw system call, which this
/// build does not declare here (the same limit as the clone strategies' absence).
pub(crate) fn add_reserved_unless_ignored(_: &mut libc::sigset_t) {}
