//! The case schema: one YAML document per case under `conformance/cases/`.
//!
//! Every struct rejects unknown fields, so a typo in a case file is an error with file and line
//! rather than a silently ignored setting. Strings marked "template" may use `${tmp}` (the case's
//! private directory, canonical) and `${helper}` (the child helper's path); see
//! `super::template`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One conformance case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Stable kebab-case id, from the conformance catalogue where the catalogue has one.
    pub id: String,
    pub title: String,
    pub area: Area,
    /// The POSIX.1-2024 requirement (`P11`, ...) or `implementation-defined`.
    pub posix: String,
    #[serde(default)]
    pub setup: Setup,
    /// Ordered file actions. Absent: a null `file_actions` pointer; `[]`: an empty object.
    #[serde(default)]
    pub actions: Option<Vec<Action>>,
    /// Absent: a null `attrp` pointer.
    #[serde(default)]
    pub attrs: Option<Attrs>,
    pub spawn: SpawnFn,
    /// Template: what is passed as `path` (posix_spawn) or `file` (posix_spawnp).
    pub program: String,
    /// What the spawned image is: the child helper (default, which then reports its state)
    /// or another program (only its exit status is observed).
    #[serde(default)]
    pub image: Image,
    /// Options for the helper (ignored for other images).
    #[serde(default)]
    pub helper: HelperOpts,
    /// Templates appended to argv (after `--` for the helper).
    #[serde(default)]
    pub args: Vec<Arg>,
    /// A complete argv that replaces the built one (`argv[0]`, helper options and args).
    /// The helper then gets its report path from `SPAWNMATRIX_REPORT`.
    #[serde(default)]
    pub argv: Option<Vec<Arg>>,
    #[serde(default)]
    pub env: Env,
    /// Whether a pid pointer is passed (`out`, default) or a null pointer (`null`).
    #[serde(default)]
    pub pid: PidArg,
    /// How many times the same prepared objects are used to spawn; every run must agree.
    #[serde(default = "one")]
    pub repeat: u32,
    #[serde(default)]
    pub scenario: Option<Scenario>,
    pub expect: Expect,
}

fn one() -> u32 {
    1
}

/// The catalogue's areas, so a report can be grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Area {
    ReturnStatus,
    ExecErrors,
    SpawnpPath,
    ArgvEnvp,
    FdInheritance,
    FileActions,
    Chdir,
    AttributesSignals,
    Concurrency,
    Memory,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpawnFn {
    PosixSpawn,
    PosixSpawnp,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Image {
    #[default]
    Helper,
    Other,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PidArg {
    #[default]
    Out,
    Null,
}

/// An argv or environment element: text (template), exact bytes in hex, or one text
/// repeated (for arguments too long to write out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Arg {
    Text(String),
    Hex { hex: String },
    Repeat { repeat: String, times: usize },
}

/// Helper command-line options (see the helper contract).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelperOpts {
    #[serde(default)]
    pub exit: Option<u8>,
    #[serde(default)]
    pub raise: Option<String>,
    #[serde(default)]
    pub read_fds: Vec<i32>,
    /// fd → text the helper writes there.
    #[serde(default)]
    pub write_fds: BTreeMap<i32, String>,
}

/// The child's environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum Env {
    /// The runner's environment with changes (templates).
    Inherit {
        #[serde(default)]
        set: BTreeMap<String, String>,
        #[serde(default)]
        unset: Vec<String>,
    },
    /// Exactly these entries, in order (duplicates allowed).
    Exact { entries: Vec<Arg> },
    /// A null `envp` pointer (undefined by POSIX; recorded).
    NullPointer,
}

impl Default for Env {
    fn default() -> Self {
        Env::Inherit {
            set: BTreeMap::new(),
            unset: Vec::new(),
        }
    }
}

/// State prepared in the runner process before the spawn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    #[serde(default)]
    pub dirs: Vec<DirSpec>,
    #[serde(default)]
    pub files: Vec<FileSpec>,
    #[serde(default)]
    pub symlinks: Vec<SymlinkSpec>,
    /// Descriptors opened in the runner, each placed at a fixed number.
    #[serde(default)]
    pub fds: Vec<FdSpec>,
    #[serde(default)]
    pub signals: Signals,
    /// The soft RLIMIT_NOFILE of the runner while it calls the spawn function (restored
    /// right after, so the runner can still read the child's report).
    #[serde(default)]
    pub rlimit_nofile_soft: Option<u64>,
    /// Changes to the runner's own environment (`posix_spawnp` searches the caller's PATH);
    /// an inherited child environment sees them too. A null value unsets the variable.
    #[serde(default)]
    pub parent_env: BTreeMap<String, Option<String>>,
    /// The case needs root (privileged scheduling, for one): `skipped:needs-root` otherwise.
    #[serde(default)]
    pub needs_root: bool,
    /// Run the spawning step with these identities (root only; else `skipped:needs-root`).
    #[serde(default)]
    pub run_as: Option<RunAs>,
    /// MiB the runner maps and touches before spawning.
    #[serde(default)]
    pub memory_mib: u64,
    /// Make the runner a process-group leader first (`setpgid(0, 0)`).
    #[serde(default)]
    pub own_pgroup: bool,
    /// Register `pthread_atfork` handlers in the runner: the child handler `_exit`s with this
    /// code (so a spawn that runs it shows as `child-exit:N`), the prepare and parent handlers
    /// are counted and recorded as facts.
    #[serde(default)]
    pub atfork_child_exit: Option<u8>,
}

/// Paths in setup are relative to `${tmp}`; `mode` is octal in YAML (`0o755`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DirSpec {
    pub path: String,
    #[serde(default = "dir_mode")]
    pub mode: u32,
}

fn dir_mode() -> u32 {
    0o755
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSpec {
    pub path: String,
    /// Template text, or ...
    #[serde(default)]
    pub content: Option<String>,
    /// ... a copy of a built-in program (`helper`), or ...
    #[serde(default)]
    pub copy: Option<Builtin>,
    /// ... this many zero bytes.
    #[serde(default)]
    pub zeros: Option<usize>,
    #[serde(default = "file_mode")]
    pub mode: u32,
}

fn file_mode() -> u32 {
    0o644
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Builtin {
    Helper,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SymlinkSpec {
    pub path: String,
    /// Template; used verbatim as the link's contents.
    pub target: String,
}

/// A descriptor in the runner at number `fd`: exactly one of `open` and `pipe`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FdSpec {
    pub fd: i32,
    #[serde(default)]
    pub open: Option<OpenSource>,
    #[serde(default)]
    pub pipe: Option<PipeSource>,
    #[serde(default)]
    pub cloexec: bool,
    /// Seek to this offset after opening.
    #[serde(default)]
    pub seek: Option<i64>,
}

/// `open(path, flags, 0644)`; path relative to `${tmp}` unless absolute (template).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenSource {
    pub path: String,
    pub flags: Vec<String>,
}

/// One end of a new pipe; the runner keeps the other end at `peer`, close-on-exec, to read
/// or write the pipe itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipeSource {
    pub end: PipeEnd,
    pub peer: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PipeEnd {
    Read,
    Write,
}

/// Signal state of the runner's spawning thread and process.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Signals {
    #[serde(default)]
    pub blocked: Vec<String>,
    #[serde(default)]
    pub ignored: Vec<String>,
    /// A handler that does nothing is installed.
    #[serde(default)]
    pub handled: Vec<String>,
    /// Set to the default action (the Rust runtime starts the runner with SIGPIPE ignored).
    #[serde(default)]
    pub defaulted: Vec<String>,
    /// Sent to the runner process (`kill`) after blocking: pending for the process. Each
    /// must also be `blocked`, or it would be delivered at once.
    #[serde(default)]
    pub pending: Vec<String>,
    /// Sent to the spawning thread (`pthread_kill`) after blocking: pending for the thread.
    #[serde(default)]
    pub thread_pending: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunAs {
    /// Real and effective ids become `nobody` (65534).
    Nobody,
    /// Real ids `nobody`, effective ids root: a set-ID parent.
    SetuidRoot,
}

/// One file action, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Open {
        fd: i32,
        /// Template.
        path: String,
        flags: Vec<String>,
        #[serde(default = "file_mode")]
        mode: u32,
    },
    Close {
        fd: i32,
    },
    Dup2 {
        fd: i32,
        to: i32,
    },
    Chdir {
        /// Template.
        path: String,
        #[serde(default)]
        api: ChdirApi,
    },
    Fchdir {
        fd: i32,
        #[serde(default)]
        api: ChdirApi,
    },
    Closefrom {
        fd: i32,
    },
}

/// Which name of the chdir actions to call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChdirApi {
    /// `posix_spawn_file_actions_add[f]chdir_np`.
    #[default]
    Np,
    /// The POSIX.1-2024 names without `_np`.
    Posix,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attrs {
    /// `SETPGROUP`, `SETSID`, `SETSIGMASK`, `SETSIGDEF`, `RESETIDS`, `SETSCHEDULER`,
    /// `SETSCHEDPARAM`, `USEVFORK`.
    #[serde(default)]
    pub flags: Vec<String>,
    #[serde(default)]
    pub pgroup: Option<Pgroup>,
    #[serde(default)]
    pub sigmask: Vec<String>,
    #[serde(default)]
    pub sigdefault: Vec<String>,
    #[serde(default)]
    pub sched: Option<SchedSpec>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pgroup {
    /// 0: a new group whose id is the child's pid.
    New,
    /// The runner's own process group.
    Parent,
    /// A process group that does not exist.
    Nonexistent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchedSpec {
    /// `SCHED_OTHER`, `SCHED_BATCH`, `SCHED_IDLE`, `SCHED_FIFO`, `SCHED_RR`.
    pub policy: String,
    pub priority: i32,
}

/// Special runs that a single spawn cannot express.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Scenario {
    /// `threads` threads each spawn `spawns` children (distinct argv and report files) while
    /// another thread opens and closes close-on-exec fds; every child is checked.
    Multithread { threads: u32, spawns: u32 },
    /// Another thread keeps sending `signal` while the runner spawns `spawns` times; the
    /// runner's handler records any run in a process other than the runner.
    SignalFlood {
        signal: String,
        spawns: u32,
        #[serde(default)]
        target: FloodTarget,
    },
    /// No spawn: the raw attribute object's defaults and set/get round trips (libc only).
    AttrRoundtrip,
    /// No spawn: the case's `attrs` set on a raw attribute object, then every getter must
    /// give back exactly what was set (libc only).
    AttrReadBack,
}

/// Where a signal flood goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FloodTarget {
    /// The runner's process group, children included (`kill(0, sig)`): a child must block it.
    #[default]
    Group,
    /// The runner alone (`kill(getpid(), sig)`), with the flooding thread blocking it, so
    /// every signal queues for the spawning thread, also while a spawn blocks signals.
    Runner,
}

/// `expect.shared: recorded`, and the verdict of such a run: observed only, nothing is
/// documented to compare with.
pub const RECORDED: &str = "recorded";

/// What must happen.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The outcomes POSIX allows for the raw libc functions.
    pub any_of: Vec<String>,
    /// The documented normalized outcome of `spawnmatrix::spawn`; defaults to `any_of` when
    /// that has one element. `recorded`: the library documents none, so its strategies'
    /// outcomes are recorded, not judged.
    #[serde(default)]
    pub shared: Option<String>,
    /// The outcome std documents, when it documents one; otherwise std is only recorded.
    #[serde(default)]
    pub std: Option<String>,
    /// Checks on what the helper reported (when it ran) and on the parent afterwards.
    #[serde(default)]
    pub child: ChildChecks,
}

/// Checks on the helper's report. Every listed check must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChildChecks {
    /// Template; compared after canonicalising.
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub fds: Vec<FdCheck>,
    /// The open fds must be exactly these.
    #[serde(default)]
    pub fds_exact: Option<Vec<i32>>,
    /// Descriptors whose presence and close-on-exec flag are recorded as facts, not checked
    /// (where implementations legitimately differ).
    #[serde(default)]
    pub record_fds: Vec<i32>,
    /// The environment, exactly and in order.
    #[serde(default)]
    pub env: Option<Vec<Arg>>,
    /// `NAME=VALUE` entries that must be present.
    #[serde(default)]
    pub env_has: Vec<String>,
    /// Names that must be absent.
    #[serde(default)]
    pub env_lacks: Vec<String>,
    /// The argv the helper saw, exactly (for `argv` overrides and scripts).
    #[serde(default)]
    pub argv: Option<Vec<Arg>>,
    #[serde(default)]
    pub sigmask: Option<Vec<String>>,
    #[serde(default)]
    pub sigmask_has: Vec<String>,
    #[serde(default)]
    pub ignored_has: Vec<String>,
    #[serde(default)]
    pub ignored_lacks: Vec<String>,
    #[serde(default)]
    pub handled: Option<Vec<String>>,
    /// The pending signals (as `sigpending` says), exactly.
    #[serde(default)]
    pub pending: Option<Vec<String>>,
    /// The signal state as the kernel holds it (see [`KernelChecks`]); a platform whose
    /// kernel the helper cannot ask gives `skipped:no-kernel-signals`.
    #[serde(default)]
    pub kernel: Option<KernelChecks>,
    #[serde(default)]
    pub pgid: Option<IdRel>,
    #[serde(default)]
    pub sid: Option<IdRel>,
    #[serde(default)]
    pub euid: Option<u32>,
    #[serde(default)]
    pub egid: Option<u32>,
    #[serde(default)]
    pub sched_policy: Option<String>,
    /// fd → text the helper must have read.
    #[serde(default)]
    pub reads: BTreeMap<i32, String>,
    /// fd → `ok` or an errno name for the helper's writes.
    #[serde(default)]
    pub writes: BTreeMap<i32, String>,
    /// Files checked in the parent after the child exited.
    #[serde(default)]
    pub files: Vec<FileCheck>,
    /// Runner-side pipe fds read to end of file after the child exited: fd → text.
    #[serde(default)]
    pub pipe_reads: BTreeMap<i32, String>,
    /// Runner-side fd → its file offset after the child exited.
    #[serde(default)]
    pub parent_offsets: BTreeMap<i32, i64>,
}

/// Exact signal sets as the kernel holds them for the helper, over the signals an
/// application can name here. The numbers the libc keeps for itself (those its `sigaction`
/// refuses: glibc's 32 and 33) are recorded as facts instead, because only the kernel shows
/// them and the libc, not POSIX, decides them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelChecks {
    #[serde(default)]
    pub ignored: Option<Vec<String>>,
    /// Signals with a handler.
    #[serde(default)]
    pub caught: Option<Vec<String>>,
    #[serde(default)]
    pub blocked: Option<Vec<String>>,
    /// The thread's and the process's pending signals together.
    #[serde(default)]
    pub pending: Option<Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdRel {
    /// Equal to the child's own pid.
    Pid,
    /// Equal to the runner's.
    Parent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FdCheck {
    pub fd: i32,
    #[serde(default = "yes")]
    pub open: bool,
    #[serde(default)]
    pub cloexec: Option<bool>,
    /// `r`, `w`, `rw`.
    #[serde(default)]
    pub access: Option<String>,
    #[serde(default)]
    pub append: Option<bool>,
    #[serde(default)]
    pub offset: Option<i64>,
    /// Template: the file it must refer to (compared by device and inode).
    #[serde(default)]
    pub same_file: Option<String>,
    /// The runner-side fd it must share an open file or pipe with (device and inode).
    #[serde(default)]
    pub same_as_parent_fd: Option<i32>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileCheck {
    /// Template.
    pub path: String,
    #[serde(default = "yes")]
    pub exists: bool,
    #[serde(default)]
    pub content: Option<String>,
    /// Permission bits (`0o600`).
    #[serde(default)]
    pub mode: Option<u32>,
}
