//! The `nproc-reached` profile: this process's user at its process limit. Root is exempt from
//! `RLIMIT_NPROC` (it has `CAP_SYS_RESOURCE`), so a root process first becomes `nobody`,
//! which drops every capability; then the soft limit goes to 1, which this process alone
//! reaches.

use std::io;

/// The conventional `nobody` user and group.
const NOBODY: libc::uid_t = 65534;

/// Makes every later process creation of this process fail with `EAGAIN`.
pub(super) fn reach() -> io::Result<()> {
    subject_to_nproc()?;
    // SAFETY: a plain limit change, checked.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        check(libc::getrlimit(libc::RLIMIT_NPROC, &mut limit))?;
        limit.rlim_cur = limit.rlim_max.min(1);
        check(libc::setrlimit(libc::RLIMIT_NPROC, &limit))
    }
}

/// Makes `RLIMIT_NPROC` apply to this process: root (exempt through `CAP_SYS_RESOURCE`)
/// becomes `nobody`, which drops every capability; anyone else stays as is. Irreversible.
pub fn subject_to_nproc() -> io::Result<()> {
    // SAFETY: plain identity changes, each checked; glibc and musl apply them to every thread.
    unsafe {
        if libc::geteuid() == 0 {
            check(libc::setgroups(0, std::ptr::null()))?;
            check(libc::setgid(NOBODY))?;
            check(libc::setuid(NOBODY))?;
        }
    }
    Ok(())
}

fn check(rc: libc::c_int) -> io::Result<()> {
    match rc {
        -1 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
}
