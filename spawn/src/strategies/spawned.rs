//! What every strategy returns, below all of them: the created child, and the error for a
//! forced strategy that cannot express a request.

use std::io;
use std::os::fd::OwnedFd;

use crate::request::{Strategy, UnsupportedError};

/// A created child: its pid, and, when one was asked for, its pidfd taken with no window in
/// which the pid could be reused, or why there is none.
pub(crate) struct Spawned {
    pub pid: libc::pid_t,
    pub pidfd: Option<io::Result<OwnedFd>>,
    /// The kernel reaps it (clone3's `CLONE_AUTOREAP`): no `waitpid` finds it; its status
    /// is read from its pidfd (`PIDFD_INFO_EXIT`).
    pub autoreaped: bool,
}

/// The error for a forced strategy that cannot do `what`.
pub(crate) fn unsupported(strategy: Strategy, what: &'static str) -> io::Error {
    UnsupportedError {
        strategy: strategy.name(),
        what,
    }
    .into()
}
