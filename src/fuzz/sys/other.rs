//! Other Unix systems (FreeBSD, macOS): no `dup3` on macOS, no `/proc` children list.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

/// Duplicates `src` onto `target` and sets `FD_CLOEXEC`. There is a short window without the
/// flag (macOS has no `dup3`); the fuzz runner spawns from one thread, so nothing can inherit it.
pub fn dup_cloexec_to(src: i32, target: i32) -> io::Result<()> {
    // SAFETY: plain syscalls on caller-owned fds.
    unsafe {
        if libc::dup2(src, target) < 0 || libc::fcntl(target, libc::F_SETFD, libc::FD_CLOEXEC) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A pipe with both ends close-on-exec (set right after creation; see [`dup_cloexec_to`]).
pub fn pipe_cloexec() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two fds into the array; fcntl only sets their flags.
    unsafe {
        if libc::pipe(fds.as_mut_ptr()) < 0 {
            return Err(io::Error::last_os_error());
        }
        let pair = (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]));
        for fd in fds {
            if libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(pair)
    }
}

/// This process's children: not listed here on these platforms (no `/proc` children file).
pub fn live_children() -> Option<Vec<u32>> {
    None
}

/// This process's open fds, ascending (an `F_GETFD` scan).
pub fn open_fds() -> Vec<i32> {
    super::scan_fds()
}

/// Where fixture trees go: the system's temporary directory.
pub fn scratch_dir() -> std::path::PathBuf {
    std::env::temp_dir()
}

/// Resident memory: not read here (`getrusage` gives only the peak).
pub fn rss_bytes() -> Option<u64> {
    None
}
