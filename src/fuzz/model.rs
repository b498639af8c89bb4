//! The differential model: one spawn request as plain data (file actions in order plus
//! attributes), so every executor runs exactly the same request and a failing one can be
//! printed, stored and replayed.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The first fd of the parent's fixtures (see [`Fixture`](super::fixture::Fixture)); they sit
/// at fixed numbers so every executor's child sees the same table.
pub const FIXTURE_BASE: i32 = 60;

/// The parent's fixture fds, in order from [`FIXTURE_BASE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FixtureFd {
    /// Read end of a pipe.
    PipeRead,
    /// Write end of the same pipe.
    PipeWrite,
    /// The fixture file `a`, read-only, positioned after its first byte.
    FileA,
    /// The fixture directory `sub`, opened `O_DIRECTORY`.
    DirSub,
    /// `/dev/null`, write-only.
    DevNull,
}

impl FixtureFd {
    pub const ALL: [FixtureFd; 5] = [
        FixtureFd::PipeRead,
        FixtureFd::PipeWrite,
        FixtureFd::FileA,
        FixtureFd::DirSub,
        FixtureFd::DevNull,
    ];

    /// The fd number this fixture has in the parent.
    pub fn fd(self) -> i32 {
        FIXTURE_BASE + Self::ALL.iter().position(|f| *f == self).unwrap_or(0) as i32
    }
}

/// A place in the fixture tree, or a path relative to whatever the cwd is at that point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathRef {
    /// Absolute path of a node in the fixture directory.
    Fixture(Node),
    /// A relative path, resolved against the child's cwd when the action runs.
    Relative(String),
}

/// Nodes of the fixture directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Node {
    Root,
    Sub,
    Deeper,
    /// A regular file with content.
    FileA,
    /// A name that does not exist until an `O_CREAT` open makes it.
    New,
    /// A name under a directory that does not exist.
    Missing,
}

impl Node {
    /// The path of the node below the fixture root (empty for the root).
    pub fn rel(self) -> &'static str {
        match self {
            Node::Root => "",
            Node::Sub => "sub",
            Node::Deeper => "sub/deeper",
            Node::FileA => "a",
            Node::New => "new",
            Node::Missing => "missing/x",
        }
    }
}

/// The open modes a sequence uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpenMode {
    Read,
    /// `O_WRONLY|O_CREAT|O_TRUNC`, mode 0600.
    WriteCreate,
    /// `O_RDWR|O_APPEND`.
    AppendRw,
    /// `O_RDONLY|O_DIRECTORY`.
    Directory,
    /// `O_WRONLY|O_CREAT|O_EXCL`, mode 0600.
    CreateExcl,
}

impl OpenMode {
    /// The `open(2)` flags, without `O_CLOEXEC`.
    pub fn flags(self) -> libc::c_int {
        match self {
            OpenMode::Read => libc::O_RDONLY,
            OpenMode::WriteCreate => libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
            OpenMode::AppendRw => libc::O_RDWR | libc::O_APPEND,
            OpenMode::Directory => libc::O_RDONLY | libc::O_DIRECTORY,
            OpenMode::CreateExcl => libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL,
        }
    }
}

/// The mode bits used when an open creates a file.
pub const CREATE_MODE: libc::mode_t = 0o600;

/// One file action, in the order it was added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "op")]
pub enum Action {
    Open {
        fd: i32,
        path: PathRef,
        mode: OpenMode,
        cloexec: bool,
    },
    Close {
        fd: i32,
    },
    Dup2 {
        from: i32,
        to: i32,
    },
    Chdir {
        path: PathRef,
    },
    Fchdir {
        fd: i32,
    },
    Closefrom {
        low: i32,
    },
}

/// Signals a sequence may name. The parent handles `SIGUSR1` and ignores `SIGUSR2` and
/// `SIGHUP` (see [`prepare_parent`](super::fixture::prepare_parent)), so mask and
/// default-disposition attributes have something to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Sig {
    SIGUSR1,
    SIGUSR2,
    SIGHUP,
    SIGTERM,
    SIGALRM,
}

impl Sig {
    pub fn number(self) -> libc::c_int {
        match self {
            Sig::SIGUSR1 => libc::SIGUSR1,
            Sig::SIGUSR2 => libc::SIGUSR2,
            Sig::SIGHUP => libc::SIGHUP,
            Sig::SIGTERM => libc::SIGTERM,
            Sig::SIGALRM => libc::SIGALRM,
        }
    }
}

/// `POSIX_SPAWN_SETPGROUP` with one of these groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pgroup {
    /// pgroup 0: the child leads a new group.
    New,
    /// The parent's own group.
    Parent,
    /// Group 1 (init's), which is in another session: must fail with `EPERM`.
    Foreign,
}

/// The spawn attributes; `None` means the flag is not set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attrs {
    pub sigmask: Option<Vec<Sig>>,
    pub sigdefault: Option<Vec<Sig>>,
    pub pgroup: Option<Pgroup>,
    pub setsid: bool,
}

/// One spawn request: which fixture fds the parent leaves inheritable, the file actions and
/// the attributes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    /// Fixture fds with `FD_CLOEXEC` cleared in the parent (all others have it set).
    pub inherit: Vec<FixtureFd>,
    pub actions: Vec<Action>,
    pub attrs: Attrs,
}

impl Sequence {
    /// Whether any action is a `closefrom`, which not every libc provides.
    pub fn uses_closefrom(&self) -> bool {
        self.actions
            .iter()
            .any(|a| matches!(a, Action::Closefrom { .. }))
    }
}

impl fmt::Display for Sequence {
    /// One line, compact JSON: what a failure message prints so the case can be replayed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match serde_json::to_string(self) {
            Ok(s) => f.write_str(&s),
            Err(_) => write!(f, "{self:?}"),
        }
    }
}
