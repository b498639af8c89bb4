//! macOS and the other Apple systems.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use crate::platform::errno::check;

/// Signals are 1..=31.
pub(crate) const NSIG: libc::c_int = 32;

/// The kernel runs the file actions; not observed here, so the path is made absolute in the
/// parent instead.
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;

/// The search path when the child's environment has no `PATH`: `execvp`'s `_PATH_DEFPATH`
/// from `<paths.h>` (`gen/exec.c`), which `std::process::Command` leaves the search to.
pub(crate) const DEFAULT_PATH: &[u8] = b"/usr/bin:/bin";

/// A close-on-exec pipe. macOS has no `pipe2`, so another thread's fork between `pipe` and
/// `fcntl` could inherit the ends (std has the same window there).
pub(crate) fn pipe_cloexec() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two fds into the array when it returns 0.
    check(unsafe { libc::pipe(fds.as_mut_ptr()) })?;
    // SAFETY: both fds are new and owned by nobody else.
    let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    for fd in [&r, &w] {
        // SAFETY: fcntl on an fd we own.
        check(unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) })?;
    }
    Ok((r, w))
}

extern "C" {
    /// Nonzero once the process has created a thread (`<pthread.h>`).
    fn pthread_is_threaded_np() -> libc::c_int;
}

/// Whether this process never had a second thread.
pub(crate) fn single_threaded() -> bool {
    // SAFETY: a query without arguments.
    unsafe { pthread_is_threaded_np() == 0 }
}
