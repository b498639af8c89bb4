//! An owned, pollable exit notification: an fd that becomes readable once the child has
//! exited, independent of the `Child` it came from, so an event loop can own it (register it
//! with tokio's `AsyncFd` or async-io's `Async`) while the `Child` stays where it is.
//!
//! Per platform: Linux's pidfd (a duplicate of the spawn's pidfd, else `pidfd_open`); on
//! macOS and the BSDs a kqueue holding one `EVFILT_PROC`/`NOTE_EXIT` filter for the child
//! (a kqueue fd polls readable while an event is pending). A child that has already exited
//! when a BSD kqueue is asked about it (macOS answers `ESRCH` for a zombie) gets an fd that
//! is readable at once. Elsewhere the call is an `Unsupported` error.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
#[path = "pidfd.rs"]
mod imp;
#[cfg(spawnmatrix_kqueue)]
#[path = "kqueue.rs"]
mod imp;
#[cfg(not(any(target_os = "linux", spawnmatrix_kqueue)))]
#[path = "none.rs"]
mod imp;

/// The notifier's fd for `child`; `InvalidInput` once it has been waited for (its pid may
/// then be another process's).
pub(crate) fn for_child(child: &mut crate::Child) -> io::Result<OwnedFd> {
    if child.has_been_waited() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the child has already been waited for",
        ));
    }
    imp::for_child(child)
}

/// An fd that polls readable once the child has exited ([`Child::exit_notifier`]). It owns
/// the fd and outlives the `Child`; it never reaps: [`Child::try_wait`] does that, without
/// blocking, once this reports the exit.
///
/// [`Child::exit_notifier`]: crate::Child::exit_notifier
/// [`Child::try_wait`]: crate::Child::try_wait
#[derive(Debug)]
pub struct ExitNotifier(OwnedFd);

impl ExitNotifier {
    pub(crate) fn new(fd: OwnedFd) -> ExitNotifier {
        ExitNotifier(fd)
    }

    /// Whether the child has exited, without blocking.
    pub fn has_exited(&self) -> io::Result<bool> {
        self.wait_timeout(Duration::ZERO)
    }

    /// Blocks until the child has exited (`true`) or `timeout` has passed (`false`). A
    /// signal handler's interruption resumes the wait for the time left.
    pub fn wait_timeout(&self, timeout: Duration) -> io::Result<bool> {
        // A timeout too long for an Instant waits without end.
        let deadline = Instant::now().checked_add(timeout);
        loop {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            // Whole milliseconds, rounded up so a wait never ends early; -1: no end.
            let ms = left.map_or(-1, |l| {
                libc::c_int::try_from(l.as_nanos().div_ceil(1_000_000)).unwrap_or(libc::c_int::MAX)
            });
            let mut pfd = libc::pollfd {
                fd: self.0.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            match unsafe { libc::poll(&mut pfd, 1, ms) } {
                n if n > 0 => return Ok(true),
                0 if left.is_some_and(|l| l.is_zero()) => return Ok(false),
                0 => continue,
                _ => {
                    let e = io::Error::last_os_error();
                    if e.kind() != io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
            }
        }
    }
}

impl AsFd for ExitNotifier {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.0.as_fd()
    }
}

impl AsRawFd for ExitNotifier {
    fn as_raw_fd(&self) -> RawFd {
        self.0.as_raw_fd()
    }
}

impl From<ExitNotifier> for OwnedFd {
    fn from(n: ExitNotifier) -> OwnedFd {
        n.0
    }
}
