//! The id system calls themselves (no libc wrapper: see the module docs). 32-bit x86 and ARM
//! keep 16-bit ids under the old numbers; their `*32` calls take full ids.

use crate::error::errno;

#[cfg(not(any(target_arch = "x86", target_arch = "arm")))]
use libc::{SYS_setgid as SETGID, SYS_setgroups as SETGROUPS, SYS_setuid as SETUID};
#[cfg(any(target_arch = "x86", target_arch = "arm"))]
use libc::{SYS_setgid32 as SETGID, SYS_setgroups32 as SETGROUPS, SYS_setuid32 as SETUID};

/// 0 for a call that returned 0, else the errno.
unsafe fn rc(r: libc::c_long) -> libc::c_int {
    if r == 0 {
        0
    } else {
        errno()
    }
}

pub(super) unsafe fn set_groups(groups: &[libc::gid_t]) -> libc::c_int {
    rc(libc::syscall(SETGROUPS, groups.len(), groups.as_ptr()))
}

pub(super) unsafe fn set_gid(gid: libc::gid_t) -> libc::c_int {
    rc(libc::syscall(SETGID, gid))
}

pub(super) unsafe fn set_uid(uid: libc::uid_t) -> libc::c_int {
    rc(libc::syscall(SETUID, uid))
}
