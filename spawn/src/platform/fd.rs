//! Marking fds close-on-exec: every fd this crate opens or is given is, so it reaches a child
//! only where a plan maps it.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use super::errno::check;

/// Marks an fd close-on-exec the moment a `Command` or `Stdio` takes it, so that no child
/// spawned meanwhile (by another thread, any library) inherits it. The builders cannot
/// return an error; a failure (impossible for a valid fd) shows at spawn, which marks it
/// again and reports it.
pub(crate) fn cloexec_at_handover(fd: &OwnedFd) {
    let _ = set_cloexec(fd.as_raw_fd());
}

/// Marks an fd the `Command` owns close-on-exec, so it reaches a child only where it is mapped.
pub(crate) fn set_cloexec(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on an fd the caller owns.
    let flags = check(unsafe { libc::fcntl(fd, libc::F_GETFD) })?;
    if flags & libc::FD_CLOEXEC == 0 {
        // SAFETY: as above.
        check(unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) })?;
    }
    Ok(())
}
