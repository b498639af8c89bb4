//! Setting up one stdio slot for one spawn: the pipe or `/dev/null` it needs, and which end
//! the child and the parent get.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use crate::platform::errno::check;
use crate::platform::fd::set_cloexec;
use crate::request::StdioKind;

/// One stdio slot, set up for one spawn.
pub(crate) struct StdioSetup {
    /// The parent fd the child gets at this slot (`None`: inherit the parent's).
    pub child_src: Option<RawFd>,
    /// An fd created for this spawn only that the child's end lives in; closed after spawn.
    pub child_owned: Option<OwnedFd>,
    /// The parent's end of a pipe.
    pub parent: Option<OwnedFd>,
}

impl StdioKind {
    /// Creates what the slot needs. `child_reads` says the pipe direction (true for stdin).
    pub(crate) fn setup(&self, child_reads: bool) -> io::Result<StdioSetup> {
        let owned = |child: OwnedFd, parent: Option<OwnedFd>| StdioSetup {
            child_src: Some(child.as_raw_fd()),
            child_owned: Some(child),
            parent,
        };
        Ok(match self {
            StdioKind::Inherit => StdioSetup {
                child_src: None,
                child_owned: None,
                parent: None,
            },
            StdioKind::Null => owned(open_dev_null()?, None),
            StdioKind::Piped => {
                let (r, w) = crate::platform::pipe_cloexec()?;
                if child_reads {
                    owned(r, Some(w))
                } else {
                    owned(w, Some(r))
                }
            }
            StdioKind::Fd(fd) => {
                set_cloexec(fd.as_raw_fd())?;
                StdioSetup {
                    child_src: Some(fd.as_raw_fd()),
                    child_owned: None,
                    parent: None,
                }
            }
            // Not marked close-on-exec: it is this process's own stdout or stderr.
            StdioKind::Static(fd) => StdioSetup {
                child_src: Some(fd.as_raw_fd()),
                child_owned: None,
                parent: None,
            },
            StdioKind::Unusable(why) => {
                return Err(io::Error::new(io::ErrorKind::InvalidInput, why.clone()))
            }
        })
    }
}

/// `/dev/null`, read-write and close-on-exec.
fn open_dev_null() -> io::Result<OwnedFd> {
    // SAFETY: a constant NUL-terminated path.
    let fd = check(unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) })?;
    // SAFETY: a new fd that nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}
