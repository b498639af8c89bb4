//! What a child's stdin, stdout or stderr is connected to.

use std::fmt;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
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
pub struct Stdio(pub(super) StdioKind);

pub(super) enum StdioKind {
    Inherit,
    Null,
    Piped,
    Fd(OwnedFd),
    /// This process's stdout or stderr, borrowed (`From<io::Stdout>`/`From<io::Stderr>`).
    Static(BorrowedFd<'static>),
    /// A std `Stdio` that could not be carried over (`From<std::process::Stdio>`, which cannot
    /// fail): the spawn that uses it fails with `InvalidInput` and this reason, before anything
    /// is created.
    Unusable(String),
}

impl fmt::Debug for Stdio {
    /// `Stdio { .. }`, as std prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stdio").finish_non_exhaustive()
    }
}

impl fmt::Debug for StdioKind {
    /// std's names for the same cases, as `{:#?}` of a `Command` shows them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// std keeps a given fd in its `FileDesc` type.
        struct FileDesc<'a>(&'a OwnedFd);
        impl fmt::Debug for FileDesc<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple("FileDesc").field(self.0).finish()
            }
        }
        match self {
            StdioKind::Inherit => f.write_str("Inherit"),
            StdioKind::Null => f.write_str("Null"),
            StdioKind::Piped => f.write_str("MakePipe"),
            StdioKind::Fd(fd) => f.debug_tuple("Fd").field(&FileDesc(fd)).finish(),
            StdioKind::Static(fd) => f.debug_tuple("StaticFd").field(fd).finish(),
            StdioKind::Unusable(why) => f.debug_tuple("Unusable").field(why).finish(),
        }
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

/// Marks an fd close-on-exec the moment a `Command` or `Stdio` takes it, so that no child
/// spawned meanwhile (by another thread, any library) inherits it. The builders cannot
/// return an error; a failure (impossible for a valid fd) shows at spawn, which marks it
/// again and reports it.
pub(super) fn cloexec_at_handover(fd: &OwnedFd) {
    let _ = set_cloexec(fd.as_raw_fd());
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
