//! `environ` and `pipe2`, shared by the platforms that have both (Linux, FreeBSD).

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

use crate::spawn::error::check;

mod raw {
    extern "C" {
        pub(super) static environ: *const *const libc::c_char;
    }
}

/// The process environment block.
pub(in crate::spawn) fn environ() -> *const *const libc::c_char {
    // SAFETY: reading the pointer; a concurrent setenv is the caller's race, as documented.
    unsafe { raw::environ }
}

/// A pipe whose ends are close-on-exec from the start.
pub(in crate::spawn) fn pipe_cloexec() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two fds into the array when it returns 0.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: both fds are new and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
