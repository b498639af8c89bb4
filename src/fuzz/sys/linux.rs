//! Linux (any libc): moving an fd with `dup3`, which sets `O_CLOEXEC` atomically.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

/// Duplicates `src` onto `target` with `FD_CLOEXEC` set in one step.
pub fn dup_cloexec_to(src: i32, target: i32) -> io::Result<()> {
    // SAFETY: plain syscall on caller-owned fds.
    if unsafe { libc::dup3(src, target, libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A pipe whose both ends are close-on-exec from the start.
pub fn pipe_cloexec() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two fds into the array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both fds were just created and are owned here only.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// This process's children (every thread's), from `/proc/self/task/*/children`; `None` when
/// the kernel does not provide that file.
pub fn live_children() -> Option<Vec<u32>> {
    let mut kids = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let list = std::fs::read_to_string(task.ok()?.path().join("children")).ok()?;
        kids.extend(
            list.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    Some(kids)
}
