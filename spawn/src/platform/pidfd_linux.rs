//! Pidfds at the system-call level: opening one for a pid, reading which pid one refers to,
//! and the error for a strategy that cannot take one atomically. The public `PidFd` is the
//! front's (`front/pidfd_linux.rs`).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

#[path = "pidfd_info.rs"]
mod info;
pub(crate) use info::{exit_status, identify, Identity};

/// The error for a pidfd that cannot be taken atomically here.
pub(crate) fn unsupported() -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        "no race-free pidfd with this strategy here (posix_spawn needs glibc 2.39's pidfd_spawn)",
    )
}

/// A pidfd for `pid` looked up now. Race-free only while nothing can reap the child
/// unasked: with `SIGCHLD` ignored the pid may already be another process's.
pub(crate) fn open(pid: libc::pid_t) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0 as libc::c_uint) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = libc::c_int::try_from(fd).map_err(|_| io::Error::other("pidfd out of range"))?;
    // SAFETY: a new fd nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Kills the process behind a new pidfd and reaps it through the pidfd (never by pid), for
/// a spawn whose child started but cannot be reported: `e` is that spawn's error.
pub(crate) fn abandon(fd: OwnedFd, e: io::Error) -> io::Error {
    // SAFETY: pidfd_send_signal on an fd this function owns; no siginfo. Failure (ESRCH)
    // means it is gone already; the wait below reaps it either way.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            fd.as_raw_fd(),
            libc::SIGKILL,
            std::ptr::null::<libc::siginfo_t>(),
            0 as libc::c_uint,
        )
    };
    // SAFETY: an all-zero siginfo is valid; waitid fills it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waitid on the pidfd writes into `info` only.
        let rc = unsafe { libc::waitid(libc::P_PIDFD, fd.as_raw_fd() as libc::id_t, &mut info, libc::WEXITED) };
        if rc == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return e;
        }
    }
}
