//! `pipe2`, shared by the platforms that have it (all but Apple's).

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

use crate::platform::errno::check;

/// A pipe whose ends are close-on-exec from the start.
pub(crate) fn pipe_cloexec() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two fds into the array when it returns 0.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: both fds are new and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
