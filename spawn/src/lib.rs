//! One `Command` that behaves the same on every platform and picks the fastest strategy that
//! can give that behaviour here: `clone3`/`clone(CLONE_VM|CLONE_VFORK)` on Linux, the libc's
//! `posix_spawn` where it can express the request, `fork` only where nothing else exists.
//!
//! The crate root mirrors `std::process`, so switching is a change of one import:
//!
//! ```
//! use spawnmatrix_spawn::{Command, Stdio};
//!
//! let output = Command::new("sh")
//!     .args(["-c", "echo hello; pwd"])
//!     .current_dir("/")
//!     .stdout(Stdio::piped())
//!     .output()?;
//! assert!(output.status.success());
//! assert_eq!(output.stdout, b"hello\n/\n");
//! assert_eq!(output.stderr, Vec::new());
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Two public modules go below the `Command` API: [`caps`] (which spawn functions, flags and
//! kernel features this process can use, found at run time) and [`sys`] (what the `libc` crate
//! lacks: the newer spawn functions looked up at run time, flag values, owned
//! `posix_spawn` objects, kernel structs). The only dependency is `libc`.
//!
//! std's platform extensions are in [`os`], as in std: `os::unix::process::{CommandExt,
//! ExitStatusExt}` (`uid`, `gid`, `groups`, `pre_exec`, `exec`, `arg0`, `process_group`;
//! `signal`, `core_dumped`, ...) and `os::linux::process::{ChildExt, CommandExt, PidFd}`
//! (`create_pidfd`, `pidfd`), so `std::os::unix::process::CommandExt` becomes
//! `spawnmatrix_spawn::os::unix::process::CommandExt`.
//!
//! Where to start: [`Command`] and [`Child`] (the std API and its extensions below), then the
//! semantics section, which every [`Strategy`] keeps. The crate's own `README.md` compares it
//! with std and tokio, with measured ratios, and names the platforms it runs on and its limits.
//!
//! The source is one folder per layer, highest first, each naming only the ones below it (the
//! repository's `tests/architecture.rs` fails otherwise): `interop` (std's traits, `from_std`,
//! the async adapters) → `front` (`Command`, `Child`, `Stdio`, `ExitStatus`) → `strategies`
//! (one per strategy, one entry each) → `plan` (all the parent prepares before the child
//! exists) → `child_side` (what runs between the child's creation and `execve`: no
//! allocation, lock or panic there) → `request` (what to run and how, read by every layer
//! below the front) → the platform facts: `caps`, `platform` (one file per family) and `sys`.
//!
//! Extensions over `std::process`:
//! [`Command::current_dir_fd`], [`Command::fd`], [`Command::setsid`],
//! [`Command::signal_mask`], [`Command::reset_signals`], [`Command::close_fds`] (close every
//! fd the parent did not hand over), [`Command::exit_fd`] and [`Command::strategy`];
//! typed child setup that needs no `pre_exec` (so no `fork`): [`Command::rlimit`],
//! [`Command::umask`], [`Command::parent_death_signal`], [`Command::controlling_terminal`],
//! [`Command::foreground`], [`Command::cgroup`]; [`Command::retry_etxtbsy`],
//! [`Command::kill_on_drop`] and [`Command::from_std`] (with `From<std::process::Stdio>`
//! for [`Stdio`]). [`Child::strategy`] says which strategy ran, [`Child::exit_fd`] gives an
//! fd that polls readable when the child exits (for event loops), [`Child::exit_notifier`]
//! an owned one ([`ExitNotifier`]: a pidfd on Linux, a kqueue `EVFILT_PROC` filter on macOS
//! and the BSDs), [`Child::wait_timeout`] waits with a deadline and
//! [`Child::kill_process_group`] kills the child's group, and
//! [`Child::wait_then_kill_process_group`] does so once the child exits, before it is reaped.
//!
//! # Semantics (the same for every [`Strategy`] on every platform)
//!
//! - **Errors are returned, not exit codes.** A failed `setsid`, `setpgid`, `setrlimit`, `chdir`, `fchdir`,
//!   `dup2` or `execve` in the child is an `Err(io::Error)` whose `raw_os_error()` is the
//!   child's errno; the failed child has already been reaped (no zombie). A process that
//!   started is never reported as "exited 127" in place of an error. That holds where
//!   `CLONE_VM|CLONE_VFORK` is quietly run as a plain fork (valgrind, qemu-user), which would
//!   lose an error written to shared memory: the clone strategies' probe (one child, before
//!   their first spawn) has the child write a sentinel the parent must see, and without it
//!   they are refused, as is a `posix_spawn` whose spawn of a missing path returns 0; `Auto`
//!   then takes the next strategy (under valgrind with glibc: `fork`; under qemu-user with
//!   musl, whose `posix_spawn` reports through a pipe: `posix_spawn`) and a forced one is
//!   `Unsupported` (`spawn/tests/fake_vfork.rs`, run under both tools by
//!   `ci/checks/48-fake-vfork.sh`; the `sandbox.valgrind` and `sandbox.qemu-user` matrix
//!   rows). A process whose environment changes after the probe is not covered: a spawn that
//!   then finds the sentinel missing kills its child and returns an error.
//! - **Bad input fails before anything is spawned:** a NUL byte in the program, an argument,
//!   an environment key or value, or the working directory is `ErrorKind::InvalidInput` naming
//!   which; an empty program is `ENOENT`; a signal number the platform does not know (in
//!   `signal_mask` or `reset_signals`), `SIGKILL`/`SIGSTOP` in `reset_signals`, or a negative
//!   child fd is `InvalidInput`.
//! - **Order in the child:** `setsid`, `ioctl(TIOCSCTTY)` ([`Command::controlling_terminal`],
//!   which implies `setsid`), `setpgid`, `tcsetpgrp` of the child's own group
//!   ([`Command::foreground`]), resource limits ([`Command::rlimit`], in the order given),
//!   `umask` ([`Command::umask`]), `setgroups`/`setgid`/`setuid`, the parent-death signal and
//!   its `getppid()` check ([`Command::parent_death_signal`]; after the ids, whose change
//!   would clear it), change directory, fd mapping, signal dispositions, signal mask,
//!   `pre_exec` closures, closing the other fds ([`Command::close_fds`]), `execve`. Every
//!   step before the mask runs with all signals blocked (so `tcsetpgrp` from a background
//!   group is not stopped by `SIGTTOU`). A cgroup ([`Command::cgroup`]) is not a step: clone3
//!   creates the child in it.
//! - **Program lookup.** A program containing `/` is used as given; a relative one is resolved
//!   against the child's *new* working directory. A bare name is searched in the `PATH` of the
//!   environment the child receives (the parent's when the environment is unchanged), or
//!   when that environment has no `PATH`, the path the libc's `execvp` uses, as `std` does
//!   (it leaves the search to `execvp`/`posix_spawnp`): `/bin:/usr/bin` on glibc (`CS_PATH`),
//!   `/usr/local/bin:/bin:/usr/bin` on musl, `/usr/bin:/bin` on macOS and FreeBSD
//!   (`_PATH_DEFPATH`); an empty entry means the working
//!   directory. The search follows `execvp`: `ENOENT`, `ENOTDIR`, `ESTALE`, `ENODEV` and
//!   `ETIMEDOUT` go on to the next entry, `EACCES` is remembered and reported if nothing else
//!   is found, any other error stops the search; there is no `/bin/sh` retry on `ENOEXEC`. An
//!   entry too long to form a path under `PATH_MAX` is skipped, as `execvp` does.
//!   Relative `PATH` entries resolve against the child's new working directory. The list of
//!   candidates is computed in the parent, so every strategy tries the same paths. The
//!   `posix_spawn` strategy skips a candidate the parent sees is missing (`ENOENT`,
//!   `ENOTDIR`: the same for any credentials) without creating a process for it, and feeds
//!   that errno to the same rule; a relative candidate is checked so only when the child keeps
//!   the parent's working directory. It never skips the last candidate, nor any when the new
//!   working directory is missing or no directory, so an error of the child's own setup
//!   (`chdir`, `setpgid`, ...) comes back as under every other strategy
//!   (`spawn/tests/path_search.rs`).
//! - **Signals.** `SIGPIPE` and every signal in `reset_signals` become `SIG_DFL`; caught signals
//!   become `SIG_DFL` (as exec does; no handler ever runs in the child); other ignored signals
//!   stay ignored. The child's mask is the calling thread's mask unless `signal_mask` is given.
//! - **File descriptors.** The child gets its stdio (inherited, `/dev/null`, a pipe or a given
//!   fd), every fd mapped with [`Command::fd`], and whatever fds the parent left without
//!   `FD_CLOEXEC`; nothing this crate opens or is given reaches the child under any other
//!   number. Mappings may overlap and permute (`3→4` with `4→3`). Fds handed to the `Command`
//!   (or made into a `Stdio`) are marked close-on-exec in the parent the moment they are
//!   handed over, so no child another thread spawns meanwhile inherits them.
//! - **The parent is untouched:** after every spawn, successful, failed or refused, under
//!   every strategy, the parent's dumpable flag, real/effective/saved ids and groups, working
//!   directory, umask, resource limits, calling thread's signal mask, signal dispositions,
//!   fd table (numbers, flags, files), the calling thread's `errno`, its session and group,
//!   parent-death signal and cgroup, and its children (none left behind) are as they were
//!   (`spawn/tests/parent_untouched.rs` compares each, strategy by scenario, for every child
//!   option). A [`Command::kill_on_drop`] child not yet gone at its drop is the exception in
//!   time only: it and the reaper thread's fds are gone once the child has exited.
//! - **Pidfds cannot race** (Linux). The pidfd of `create_pidfd` and the exit fd of
//!   [`Command::exit_fd`] are taken in the step that creates the child (`CLONE_PIDFD` for
//!   clone3 and clone, `pidfd_spawn` for posix_spawn, the forked child's own `pidfd_open`
//!   sent over a socket), so they refer to the child even when it is reaped at once
//!   (`SIGCHLD` ignored, `SA_NOCLDWAIT`, a `waitpid(-1)` elsewhere) and its pid reused.
//!   Where that cannot be done (a forced `PosixSpawn` without glibc 2.39's `pidfd_spawn`,
//!   Linux before 5.2) the spawn succeeds and the pidfd is the error; `Auto` does not pick
//!   such a `posix_spawn` for a pidfd request. [`Child::kill`] signals through the pidfd
//!   when there is one, and a child reaped through [`os::linux::process::PidFd::wait`] is
//!   known to its `Child` (`kill` does nothing, `wait` returns the status), so no signal or
//!   wait reaches a reused pid (`spawn/tests/pidfd.rs`, with a decoy process on the freed
//!   pid). One window remains: a [`Child::exit_fd`] not asked for at spawn is opened by pid
//!   when first called, after something else may have reaped the child.
//! - **Environment.** When it is unchanged, the child gets a copy of the process environment
//!   taken at spawn time under std's environment lock, so `std::env::set_var` in another thread
//!   is safe, as with `std`. A `setenv` from C code in another thread is a data race (as with
//!   `std`). Entries without `=` (which `std::env::vars_os` skips) reach a child whose
//!   environment is unchanged, as with std. Limit: when a library holding this crate is
//!   loaded with `dlopen` into a process that already has threads, such entries are not
//!   recorded (reading `environ` beside a `setenv` would race), so they are not passed.
//! - **The child calls the kernel, not libc** (Linux): between its creation and `execve`,
//!   the child of `clone3`, `clone_vfork` and `fork` makes raw system calls only, so an
//!   `LD_PRELOAD` interposer of `open`, `close`, `chdir`, `dup2`, `execve`, `sigaction`, ...
//!   sees none of them (`spawn/tests/no_libc_in_child.rs`); it still sees the parent's.
//! - **Resource limits and umask keep the fast path.** [`Command::rlimit`] and
//!   [`Command::umask`] run in a `clone3`/`clone_vfork` child: without `CLONE_THREAD` the
//!   child has its own copy of the limits (the kernel's `signal_struct`), and without
//!   `CLONE_FS` its own umask (`fs_struct`), so the parent's stay as they were. `posix_spawn`
//!   has no attribute for either: forced, it is `Unsupported`, and `Auto` skips it.
//! - **Terminal, parent-death signal, cgroup.** [`Command::parent_death_signal`],
//!   [`Command::controlling_terminal`] and [`Command::foreground`] run in a
//!   `clone3`/`clone_vfork` child too (each is the calling task's own state: its
//!   `pdeath_signal`, its session's terminal, its group); `posix_spawn` expresses only
//!   `foreground` (glibc 2.35's `addtcsetpgrp_np`), so forced it is `Unsupported` for the
//!   others and `Auto` skips it. [`Command::cgroup`] only clone3 can do
//!   (`CLONE_INTO_CGROUP`): `Auto` takes clone3 for it and every other strategy is
//!   `Unsupported`, as is `Auto` where clone3 is refused.
//! - **Which strategy can do what.** `pre_exec` closures and ids (`uid`/`gid`/`groups`) need
//!   a forked child, as in std: `Auto` uses `fork` for them, and any other forced strategy is
//!   `Unsupported` (a `CLONE_VM` child that changes ids makes the kernel mark the shared
//!   memory, so the parent, non-dumpable). On Linux the forked child makes itself
//!   non-dumpable right after its id calls; limit: with `fs.suid_dumpable=1` the new user
//!   can still attach to it in the instant between `setuid` and that `prctl`.
//!
//! # Differences from `std::process`
//!
//! Each one deliberate; `spawn/tests/std_parity` checks everything else against std.
//! - An fd given to [`Command::fd`] (which std lacks) is owned by the `Command` and stays open
//!   in the parent, close-on-exec, until the `Command` drops, so the next spawn can map it
//!   again; a pipe's write end held that way keeps its reader from seeing end of file until
//!   then. A `Stdio` made from a raw fd is marked close-on-exec in the parent, so it reaches
//!   no child it was not given to; std leaves its flags alone.
//! - A failed `execve` of a file without a `#!` line is `ENOEXEC`; std's `fork` path (used
//!   with `pre_exec`, `uid`, ... and by `exec`) goes through `execvp`, which on glibc runs such
//!   a file with `/bin/sh`: a shell nobody asked for would hide a broken program.
//! - Entries without `=` are those of the initial environment (recorded before `main`, or at
//!   `dlopen` while the process has one thread); std
//!   hands over the live `environ`, so it would also pass ones C code adds by writing
//!   `environ` itself: this crate never reads `environ` while another thread may change it.
//! - `{:#?}` of a `Command` adds this crate's settings after std's fields (each only when
//!   set), and prints `Stdio` fds as std's internal types print them.
//! - A forced `PosixSpawn` with `create_pidfd` on a libc without `pidfd_spawn` gives no
//!   pidfd (std falls back to fork there); a failed pidfd is the spawn's error, not
//!   std's generic "No pidfd was created."
//!
//! # Strategies
//!
//! See [`Strategy`]. `Auto` takes `clone3` (with `CLONE_CLEAR_SIGHAND`) on Linux when the kernel
//! has it, else `clone(CLONE_VM|CLONE_VFORK)`; elsewhere `posix_spawn` when it can express the
//! request, else `fork`. Forcing a strategy that cannot express a request is an
//! `ErrorKind::Unsupported` error that names what is missing.
//!
//! Two glibc releases' bugs are avoided rather than inherited: before 2.25 glibc's `clone`
//! wrapper makes a `CLONE_VM` child overwrite the parent thread's PID/TID cache, so
//! `clone_vfork` is unavailable there; before 2.24 `posix_spawn` reports a failed `execve` as a
//! child exiting 127, so `posix_spawn` is unavailable there (`Auto` then uses `clone3` or
//! `fork`).

#![deny(missing_docs)]

/// Each item given only on Unix: the spawn implementation is Unix code throughout. (A
/// `mod` inside a macro resolves its file as it would outside.)
macro_rules! unix {
    ($($item:item)*) => { $( #[cfg(unix)] $item )* };
}

// Outside the macro: `sys` exports `family_module!`, and an exported macro defined in a
// macro-expanded module cannot be named by its path.
#[cfg(unix)]
pub mod sys;

unix! {
    // The layers, highest first: each names only the ones below it (`tests/architecture.rs`
    // holds that). `ARCHITECTURE.md` says what each holds.
    mod interop;
    mod front;
    mod strategies;
    mod plan;
    mod child_side;
    mod request;
    mod platform;
    pub mod caps;

    /// The README's library example, compiled and run with the doctests so it cannot go stale.
    #[cfg(doctest)]
    #[doc = include_str!("../../README.md")]
    struct ReadmeExample;

    /// The same for this crate's own README (the registry's page).
    #[cfg(doctest)]
    #[doc = include_str!("../README.md")]
    struct CrateReadme;

    pub use front::{
        Child, Command, CommandArgs, CommandEnvs, ExitNotifier, ExitStatus, Output, Stdio,
    };
    pub use interop::os;
    pub use interop::FromStdError;
    #[cfg(feature = "async-io")]
    pub use interop::async_io;
    #[cfg(feature = "tokio")]
    pub use interop::tokio;
    pub use request::{InputError, ParseStrategyError, Strategy, UnsupportedError};
    /// Not about spawning; re-exported so that `std::process::` paths need only one change.
    pub use std::process::{abort, exit, id, ExitCode, Termination};
    /// The parent's ends of a child's piped stdio are std's own types, so code that names them
    /// keeps compiling.
    pub use std::process::{ChildStderr, ChildStdin, ChildStdout};
}

/// Not a Unix (Windows, wasm): this crate has no spawn implementation of its own there and
/// re-exports `std::process`, so `use spawnmatrix_spawn::{Command, Stdio}` still compiles
/// and behaves as std does.
#[cfg(not(unix))]
pub use std::process::*;
