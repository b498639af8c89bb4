//! libc's calls: process-wide (every thread) on Linux, where `CommandExt::exec` uses them; a
//! forked child's only thread elsewhere.

use crate::platform::errno::errno;

/// 0 for a call that returned 0, else the errno.
unsafe fn rc(r: libc::c_int) -> libc::c_int {
    if r == 0 {
        0
    } else {
        errno()
    }
}

// The count is a size_t on Linux (the conversion is the identity) and an int on the BSDs
// and macOS.
#[allow(irrefutable_let_patterns, clippy::useless_conversion)]
pub(super) unsafe fn set_groups(groups: &[libc::gid_t]) -> libc::c_int {
    // The count is an `int` on most libcs and a `size_t` on some (bionic).
    #[allow(irrefutable_let_patterns)]
    let Ok(n) = groups.len().try_into() else {
        return libc::EINVAL;
    };
    rc(libc::setgroups(n, groups.as_ptr()))
}

pub(super) unsafe fn set_gid(gid: libc::gid_t) -> libc::c_int {
    rc(libc::setgid(gid))
}

pub(super) unsafe fn set_uid(uid: libc::uid_t) -> libc::c_int {
    rc(libc::setuid(uid))
}
