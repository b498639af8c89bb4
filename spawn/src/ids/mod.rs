//! Changing the child's user and group ids (`CommandExt::uid`/`gid`/`groups`), in std's
//! order: `setgroups`, `setgid`, then `setuid` (after dropping the supplementary groups with
//! `setgroups(0)` when no groups were given, `EPERM` ignored). Runs in the child; the
//! per-platform file gives the three calls.
//!
//! On Linux they are raw system calls: glibc's and musl's wrappers change the ids of every
//! thread of the process (they signal each thread and wait), and a `CLONE_VM` child shares
//! the parent's thread list, so a wrapper would signal the parent's threads. The kernel call
//! changes only the calling task's credentials. Elsewhere the child is a fork (or
//! `posix_spawn`, which cannot set ids and refuses), whose only thread may use libc.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux::{set_gid, set_groups, set_uid};

#[cfg(not(target_os = "linux"))]
mod libc_calls;
#[cfg(not(target_os = "linux"))]
use libc_calls::{set_gid, set_groups, set_uid};

/// The ids a child takes, prepared in the parent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Ids {
    pub uid: Option<libc::uid_t>,
    pub gid: Option<libc::gid_t>,
    pub groups: Option<Box<[libc::gid_t]>>,
}

impl Ids {
    /// Whether anything changes.
    pub(super) fn any(&self) -> bool {
        self.uid.is_some() || self.gid.is_some() || self.groups.is_some()
    }
}

/// Applies `ids`; returns 0 or the errno of the call that failed.
///
/// # Safety
/// Async-signal-safe: runs in the child, possibly sharing the parent's memory.
pub(super) unsafe fn apply(ids: &Ids) -> libc::c_int {
    if let Some(groups) = &ids.groups {
        let e = set_groups(groups);
        if e != 0 {
            return e;
        }
    }
    if let Some(gid) = ids.gid {
        let e = set_gid(gid);
        if e != 0 {
            return e;
        }
    }
    if let Some(uid) = ids.uid {
        if ids.groups.is_none() {
            // Without CAP_SETGID this fails with EPERM; std goes on then, and so does this.
            let e = set_groups(&[]);
            if e != 0 && e != libc::EPERM {
                return e;
            }
        }
        return set_uid(uid);
    }
    0
}
