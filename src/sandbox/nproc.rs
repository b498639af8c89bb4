//! The `nproc-reached` profile: this process's user at its process limit. Root is exempt from
//! `RLIMIT_NPROC` (it has `CAP_SYS_RESOURCE`), so a root process first becomes `nobody`,
//! which drops every capability; then the soft limit goes to 1, which this process alone
//! reaches.

use std::io;

/// The conventional `nobody` user and group.
const NOBODY: libc::uid_t = 65534;

/// Makes every later process creation of this process fail with `EAGAIN`.
pub(super) fn reach() -> io::Result<()> {
    // SAFETY: plain identity and limit changes, each checked; glibc and musl apply the
    // identity changes to every thread.
    unsafe {
        if libc::geteuid() == 0 {
            check(libc::setgroups(0, std::ptr::null()))?;
            check(libc::setgid(NOBODY))?;
            check(libc::setuid(NOBODY))?;
        }
        let mut limit: libc::rlimit = std::mem::zeroed();
        check(libc::getrlimit(libc::RLIMIT_NPROC, &mut limit))?;
        limit.rlim_cur = limit.rlim_max.min(1);
        check(libc::setrlimit(libc::RLIMIT_NPROC, &limit))
    }
}

fn check(rc: libc::c_int) -> io::Result<()> {
    match rc {
        -1 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
}
