//! macOS and the BSDs: a kqueue with one `EVFILT_PROC` filter on the child for `NOTE_EXIT`.
//! A kqueue fd polls readable while it holds a pending event, so the notifier is readable
//! from the child's exit on; nothing here reaps (the filter is one-shot and only reports).
//!
//! A child that has exited already but is not yet reaped is a zombie, and attaching to it
//! differs: FreeBSD reports the exit at once, while macOS's `proc_find` skips zombies and
//! `kevent` fails with `ESRCH`. This `Child` has not reaped the pid, so `ESRCH` can only mean
//! that exit: the notifier is then an fd that is readable at once.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

use crate::platform::errno::check;
use crate::Child;

/// An fd that is readable at once and stays so: the read end of a pipe whose write end is
/// closed (for a child known to have exited already).
fn already_readable() -> io::Result<OwnedFd> {
    let (read, write) = crate::platform::pipe_cloexec()?;
    drop(write);
    Ok(read)
}

/// A kqueue that reports the child's exit, or an fd already readable if it has exited.
pub(super) fn for_child(child: &mut Child) -> io::Result<OwnedFd> {
    // SAFETY: kqueue takes no arguments and returns a new fd or -1.
    let kq = check(unsafe { libc::kqueue() })?;
    // SAFETY: a new fd nobody else owns.
    let kq = unsafe { OwnedFd::from_raw_fd(kq) };
    // A kqueue is not inherited by fork on these systems, but every internal fd of this
    // crate is close-on-exec all the same.
    // SAFETY: F_SETFD on an fd this function owns.
    check(unsafe { libc::fcntl(std::os::fd::AsRawFd::as_raw_fd(&kq), libc::F_SETFD, libc::FD_CLOEXEC) })?;
    // SAFETY: an all-zero kevent is a valid value; the fields are set below.
    let mut change: libc::kevent = unsafe { std::mem::zeroed() };
    change.ident = child.id() as _;
    change.filter = libc::EVFILT_PROC as _;
    change.flags = (libc::EV_ADD | libc::EV_ONESHOT) as _;
    change.fflags = libc::NOTE_EXIT as _;
    // SAFETY: one change, no event buffer, no timeout pointer needed (no events asked).
    let rc = unsafe {
        libc::kevent(
            std::os::fd::AsRawFd::as_raw_fd(&kq),
            &change,
            1,
            std::ptr::null_mut(),
            0,
            std::ptr::null(),
        )
    };
    if rc < 0 {
        let e = io::Error::last_os_error();
        return match e.raw_os_error() {
            Some(libc::ESRCH) => already_readable(),
            _ => Err(e),
        };
    }
    Ok(kq)
}
