//! What a child's stdin, stdout or stderr is connected to.

use std::fmt;
use std::fs::File;
use std::io;
use std::os::fd::{BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};

pub(crate) use crate::platform::fd::cloexec_at_handover;
use crate::request::StdioKind;

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
pub struct Stdio(pub(crate) StdioKind);

impl fmt::Debug for Stdio {
    /// `Stdio { .. }`, as std prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stdio").finish_non_exhaustive()
    }
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
    /// Marks the fd close-on-exec now, so a child another thread spawns meanwhile does not
    /// inherit it.
    fn from(fd: OwnedFd) -> Stdio {
        cloexec_at_handover(&fd);
        Stdio(StdioKind::Fd(fd))
    }
}

impl From<io::Stdout> for Stdio {
    /// The child writes to this process's stdout (fd 1) directly, as in std.
    fn from(_: io::Stdout) -> Stdio {
        // SAFETY: fd 1 stays open for the life of the process, as std assumes too.
        Stdio(StdioKind::Static(unsafe {
            BorrowedFd::borrow_raw(libc::STDOUT_FILENO)
        }))
    }
}

impl From<io::Stderr> for Stdio {
    /// The child writes to this process's stderr (fd 2) directly, as in std.
    fn from(_: io::Stderr) -> Stdio {
        // SAFETY: fd 2 stays open for the life of the process, as std assumes too.
        Stdio(StdioKind::Static(unsafe {
            BorrowedFd::borrow_raw(libc::STDERR_FILENO)
        }))
    }
}

impl FromRawFd for Stdio {
    /// Takes ownership of `fd`, as std does.
    unsafe fn from_raw_fd(fd: RawFd) -> Stdio {
        Stdio::from(OwnedFd::from_raw_fd(fd))
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
