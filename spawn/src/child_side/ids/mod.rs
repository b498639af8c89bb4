//! Changing user and group ids (`CommandExt::uid`/`gid`/`groups`), in std's order:
//! `setgroups`, `setgid`, then `setuid` (after dropping the supplementary groups with
//! `setgroups(0)` when no groups were given, `EPERM` ignored).
//!
//! Two scopes. A spawned child ([`ChildIds`]) is always a forked child, never one that shares
//! the parent's memory (`Prepared::needs_fork`): on Linux the kernel's `commit_creds` makes
//! the *mm* non-dumpable when the effective ids change, and under `CLONE_VM` that mm is the
//! parent's. There the calls are raw system calls (they change the calling task only, which
//! is the child's only thread), and the child makes itself non-dumpable at once after them,
//! so that with `fs.suid_dumpable=1` the target user cannot attach to it (and read its copy
//! of the parent's memory) before `execve`. `CommandExt::exec` changes the ids of the
//! process itself ([`ProcessIds`]): libc's process-wide `setgroups`/`setgid`/`setuid`, which
//! change every thread, as std does, so a failed exec never leaves threads with mixed ids.

mod libc_calls;
#[cfg(target_os = "linux")]
mod linux;

use crate::request::Ids;

/// The three calls of one scope, each returning 0 or an errno, and what follows them. The
/// defaults are libc's calls.
pub(crate) trait IdCalls {
    unsafe fn set_groups(groups: &[libc::gid_t]) -> libc::c_int {
        libc_calls::set_groups(groups)
    }
    unsafe fn set_gid(gid: libc::gid_t) -> libc::c_int {
        libc_calls::set_gid(gid)
    }
    unsafe fn set_uid(uid: libc::uid_t) -> libc::c_int {
        libc_calls::set_uid(uid)
    }
    /// Runs once the ids changed (0 or an errno).
    unsafe fn after() -> libc::c_int {
        0
    }
}

/// A forked child's ids: the raw per-task system calls on Linux, then non-dumpable.
pub(crate) struct ChildIds;

/// This process's ids, every thread's: libc's calls.
pub(crate) struct ProcessIds;

impl IdCalls for ProcessIds {}

#[cfg(target_os = "linux")]
impl IdCalls for ChildIds {
    unsafe fn set_groups(groups: &[libc::gid_t]) -> libc::c_int {
        linux::set_groups(groups)
    }
    unsafe fn set_gid(gid: libc::gid_t) -> libc::c_int {
        linux::set_gid(gid)
    }
    unsafe fn set_uid(uid: libc::uid_t) -> libc::c_int {
        linux::set_uid(uid)
    }
    unsafe fn after() -> libc::c_int {
        linux::make_undumpable()
    }
}

/// Elsewhere a credential change marks the process set-id (`P_SUGID`), which already keeps
/// the new user from attaching, and the forked child's libc calls change its only thread.
#[cfg(not(target_os = "linux"))]
impl IdCalls for ChildIds {}

/// Applies `ids` with the calls of `C`; returns 0 or the errno of the call that failed.
///
/// # Safety
/// Async-signal-safe for [`ChildIds`] (runs in a forked child).
pub(crate) unsafe fn apply<C: IdCalls>(ids: &Ids) -> libc::c_int {
    if !ids.any() {
        return 0;
    }
    if let Some(groups) = &ids.groups {
        let e = C::set_groups(groups);
        if e != 0 {
            return e;
        }
    }
    if let Some(gid) = ids.gid {
        let e = C::set_gid(gid);
        if e != 0 {
            return e;
        }
    }
    if let Some(uid) = ids.uid {
        if ids.groups.is_none() {
            // Without CAP_SETGID this fails with EPERM; std goes on then, and so does this.
            let e = C::set_groups(&[]);
            if e != 0 && e != libc::EPERM {
                return e;
            }
        }
        let e = C::set_uid(uid);
        if e != 0 {
            return e;
        }
    }
    C::after()
}
