//! What a child's stdin, stdout or stderr is to be connected to; the front's `Stdio` wraps
//! one, the plan sets it up (`plan/stdio.rs`).

use std::fmt;
use std::os::fd::{BorrowedFd, OwnedFd};

pub(crate) enum StdioKind {
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
