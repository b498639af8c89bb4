//! Linux: the notifier is a duplicate of the child's pidfd ([`Child::exit_fd`] says when that
//! pidfd is race-free); a pidfd polls readable once its process has exited.
//!
//! [`Child::exit_fd`]: crate::Child::exit_fd

use std::io;
use std::os::fd::OwnedFd;

use crate::Child;

/// A close-on-exec duplicate of the child's pidfd (taken at spawn, else opened now).
pub(super) fn for_child(child: &mut Child) -> io::Result<OwnedFd> {
    child.exit_fd()?.try_clone_to_owned()
}
