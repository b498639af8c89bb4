//! The request: what to run and how, as the front's builders fill it in. Every layer below
//! reads these types and none of them owns them: the plan prepares a spawn from a
//! `Request`, the strategies and the child read the parts the plan hands on.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::path::PathBuf;

mod env;
mod error;
mod ids;
mod rlimit;
mod stdio;
mod strategy;

pub(crate) use env::EnvChanges;
pub use error::{InputError, UnsupportedError};
pub(crate) use ids::Ids;
pub(crate) use rlimit::Rlimit;
pub(crate) use stdio::StdioKind;
pub use strategy::{ParseStrategyError, Strategy};

/// A process to spawn, as `Command` holds it.
pub(crate) struct Request {
    pub program: OsString,
    /// The full argv, `argv[0]` (the program as given) included.
    pub argv: Vec<OsString>,
    pub env: EnvChanges,
    pub cwd: Option<Cwd>,
    /// stdin, stdout, stderr; `None` takes the default of the call (`spawn`: inherit).
    pub stdio: [Option<StdioKind>; 3],
    /// Child fd (3 and up) -> the parent fd it is made from.
    pub fds: BTreeMap<RawFd, OwnedFd>,
    pub setsid: bool,
    pub pgid: Option<libc::pid_t>,
    /// Resource limits the child sets, in order (`Command::rlimit`).
    pub rlimits: Vec<Rlimit>,
    /// The child's umask (`Command::umask`).
    pub umask: Option<libc::mode_t>,
    pub mask: Mask,
    pub reset_signals: Vec<libc::c_int>,
    pub strategy: Strategy,
    /// Close every fd from 3 up that the fd plan does not write, in the child.
    pub close_fds: bool,
    /// `setuid`, `setgid` and `setgroups` in the child (`CommandExt::uid`/`gid`/`groups`).
    pub ids: Ids,
    /// Closures run in a forked child just before `execve` (`CommandExt::pre_exec`).
    pub pre_exec: Vec<PreExec>,
    /// Whether the child gets a pidfd (Linux `CommandExt::create_pidfd`).
    pub create_pidfd: bool,
    /// Whether `Child::exit_fd` is taken at spawn (`Command::exit_fd`).
    pub exit_fd: bool,
    /// The signal the child gets when the thread that spawned it ends
    /// (`Command::parent_death_signal`).
    pub pdeathsig: Option<libc::c_int>,
    /// Whether the child runs with `no_new_privs` (`Command::no_new_privs`).
    pub no_new_privs: bool,
    /// Whether the child is killed when this process ends (`Command::kill_on_parent_death`).
    pub kill_on_parent_death: bool,
    /// Whether the kernel may reap the child (`Command::spawn_detached`).
    pub autoreap: bool,
    /// The terminal the child takes as its controlling terminal, after `setsid`
    /// (`Command::controlling_terminal`).
    pub ctty: Option<OwnedFd>,
    /// The terminal whose foreground process group becomes the child's
    /// (`Command::foreground`).
    pub foreground: Option<OwnedFd>,
    /// The cgroup v2 directory the child starts in (`Command::cgroup`).
    pub cgroup: Option<OwnedFd>,
    /// How many times a spawn failing with `ETXTBSY` is tried again (`Command::retry_etxtbsy`).
    pub retry_etxtbsy: u32,
    /// Whether the `Child` kills its process when dropped (`Command::kill_on_drop`).
    pub kill_on_drop: bool,
}

impl Request {
    /// `program` with no arguments, the parent's environment, working directory and stdio,
    /// `Strategy::Auto`.
    pub(crate) fn new(program: &OsStr) -> Request {
        let program = program.to_os_string();
        Request {
            argv: vec![program.clone()],
            program,
            env: EnvChanges::default(),
            cwd: None,
            stdio: [None, None, None],
            fds: BTreeMap::new(),
            setsid: false,
            pgid: None,
            rlimits: Vec::new(),
            umask: None,
            mask: Mask::Inherit,
            reset_signals: Vec::new(),
            strategy: Strategy::Auto,
            close_fds: false,
            ids: Ids::default(),
            pre_exec: Vec::new(),
            create_pidfd: false,
            exit_fd: false,
            pdeathsig: None,
            no_new_privs: false,
            kill_on_parent_death: false,
            autoreap: false,
            ctty: None,
            foreground: None,
            cgroup: None,
            retry_etxtbsy: 0,
            kill_on_drop: false,
        }
    }
}

/// Where the child runs.
#[derive(Debug)]
pub(crate) enum Cwd {
    Path(PathBuf),
    Fd(OwnedFd),
}

/// The child's signal mask, if not the calling thread's.
#[derive(Clone)]
pub(crate) enum Mask {
    Inherit,
    Signals(Vec<libc::c_int>),
    Set(libc::sigset_t),
}

/// A `pre_exec` closure, as std stores it.
pub(crate) type PreExec = Box<dyn FnMut() -> io::Result<()> + Send + Sync>;

/// What unset stdio slots become.
#[derive(Clone, Copy)]
pub(crate) enum Defaults {
    /// `spawn` and `status`: inherit all three.
    Inherit,
    /// `output`: stdin from `/dev/null`, stdout and stderr piped.
    Output,
}
