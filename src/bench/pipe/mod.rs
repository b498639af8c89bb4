//! Close-on-exec pipes, made atomically where the platform allows it.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

#[cfg(not(target_vendor = "apple"))]
#[path = "pipe2.rs"]
mod sys;
#[cfg(target_vendor = "apple")]
#[path = "apple.rs"]
mod sys;

/// A close-on-exec pipe: (read end, write end).
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [-1; 2];
    sys::pipe_cloexec(&mut fds)?;
    // SAFETY: both descriptors were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
