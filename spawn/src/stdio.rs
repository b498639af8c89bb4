//! What a child's stdin, stdout or stderr is connected to.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};

use super::error::check;

/// A child's standard stream: inherited, `/dev/null`, a new pipe, or a given fd. Mirrors
/// `std::process::Stdio`.
///
/// ```
/// use spawnmatrix_spawn::{Command, Stdio};
///
/// // Any file or owned fd can be a child's stream.
/// let output = Command::new("cat")
///     .stdin(std::fs::File::open("/dev/null")?)
///     .stdout(Stdio::piped())
///     .stderr(Stdio::inherit())
///     .output()?;
/// assert!(output.status.success() && output.stdout.is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Stdio(pub(super) StdioKind);

#[derive(Debug)]
pub(super) enum StdioKind {
    Inherit,
    Null,
    Piped,
    Fd(OwnedFd),
}

impl Stdio {
    /// The child uses the parent's stream.
    pub fn inherit() -> Stdio {
        Stdio(StdioKind::Inherit)
    }

    /// The child's stream is `/dev/null`.
    pub fn null() -> Stdio {
        Stdio(StdioKind::Null)
    }

    /// A new pipe; the parent's end appears in `Child::stdin`/`stdout`/`stderr`.
    pub fn piped() -> Stdio {
        Stdio(StdioKind::Piped)
    }
}

impl From<OwnedFd> for Stdio {
    fn from(fd: OwnedFd) -> Stdio {
        Stdio(StdioKind::Fd(fd))
    }
}

impl From<File> for Stdio {
    fn from(f: File) -> Stdio {
        Stdio::from(OwnedFd::from(f))
    }
}

impl From<ChildStdin> for Stdio {
    fn from(s: ChildStdin) -> Stdio {
        Stdio::from(OwnedFd::from(s))
    }
}

impl From<ChildStdout> for Stdio {
    fn from(s: ChildStdout) -> Stdio {
        Stdio::from(OwnedFd::from(s))
    }
}

impl From<ChildStderr> for Stdio {
    fn from(s: ChildStderr) -> Stdio {
        Stdio::from(OwnedFd::from(s))
    }
}

/// One stdio slot, set up for one spawn.
pub(super) struct StdioSetup {
    /// The parent fd the child gets at this slot (`None`: inherit the parent's).
    pub child_src: Option<RawFd>,
    /// An fd created for this spawn only that the child's end lives in; closed after spawn.
    pub child_owned: Option<OwnedFd>,
    /// The parent's end of a pipe.
    pub parent: Option<OwnedFd>,
}

impl StdioKind {
    /// Creates what the slot needs. `child_reads` says the pipe direction (true for stdin).
    pub(super) fn setup(&self, child_reads: bool) -> io::Result<StdioSetup> {
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
                let (r, w) = super::os::pipe_cloexec()?;
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

/// Marks an fd the `Command` owns close-on-exec, so it reaches a child only where it is mapped.
pub(super) fn set_cloexec(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on an fd the caller owns.
    let flags = check(unsafe { libc::fcntl(fd, libc::F_GETFD) })?;
    if flags & libc::FD_CLOEXEC == 0 {
        // SAFETY: as above.
        check(unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) })?;
    }
    Ok(())
}
