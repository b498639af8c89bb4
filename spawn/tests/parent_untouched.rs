//! "The parent is untouched", as a test: around every spawn (strategy × scenario, successful,
//! failed or refused), this process's state is read before and after and must be equal:
//! the dumpable flag, the credentials and groups, the working directory, the umask, the
//! core and open-files limits, the calling thread's signal mask, every signal disposition,
//! the fd table (numbers, fd flags, status flags, which file), `errno`, the children (none left: no zombie),
//! the session and group, the parent-death signal, `no_new_privs` and the cgroup. The scenarios cover every
//! child option, the last round's too (parent-death signal, terminal, foreground, cgroup,
//! `retry_etxtbsy`, `kill_on_drop`, the group kill, `wait_timeout`, `from_std`) and
//! `no_new_privs`.
//!
//! The cases run one at a time (`SERIAL`): the fd table and the dispositions are the whole
//! process's, so no other test of this binary may open an fd or install a handler meanwhile.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::{Mutex, MutexGuard};

use rstest::rstest;
use spawnmatrix_spawn::os::unix::process::CommandExt;
use spawnmatrix_spawn::{Command, Stdio, Strategy};

include!("support/paths.rs");

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// Fds probed for the table (this binary never opens more than a few dozen).
const FD_PROBE: libc::c_int = 1024;

/// One open fd: number, `F_GETFD`, `F_GETFL`, and the file (device, inode).
type FdEntry = (libc::c_int, libc::c_int, libc::c_int, u64, u64);

/// One signal's disposition: handler, flags, and which signals its mask holds.
type Disposition = (libc::c_int, usize, libc::c_int, Vec<libc::c_int>);

/// What a spawn must leave as it found it.
#[derive(Debug, PartialEq, Eq, Clone)]
struct ParentState {
    dumpable: Option<libc::c_int>,
    /// Real, effective, saved (Linux; elsewhere real and effective twice).
    uids: [libc::uid_t; 3],
    gids: [libc::gid_t; 3],
    groups: Vec<libc::gid_t>,
    cwd: std::path::PathBuf,
    umask: libc::mode_t,
    /// The core and open-files limits (soft, hard).
    rlimits: Vec<(u64, u64)>,
    mask: Vec<libc::c_int>,
    dispositions: Vec<Disposition>,
    fds: Vec<FdEntry>,
    /// The calling thread's `errno`, right after the spawn returned (before: a sentinel).
    errno: libc::c_int,
    /// `waitpid(-1, WNOHANG)`: -1 (`ECHILD`) when there is no child, a zombie's pid else.
    children: libc::pid_t,
    /// The session and process group (`getsid(0)`, `getpgrp()`).
    session: (libc::pid_t, libc::pid_t),
    /// The parent-death signal (Linux `PR_GET_PDEATHSIG`; elsewhere 0).
    pdeathsig: libc::c_int,
    /// The calling thread's `no_new_privs` (Linux `PR_GET_NO_NEW_PRIVS`; elsewhere 0).
    no_new_privs: libc::c_int,
    /// This process's cgroup (Linux `/proc/self/cgroup`; elsewhere empty).
    cgroup: String,
}

/// This process's parent-death signal.
fn pdeathsig() -> libc::c_int {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let mut sig: libc::c_int = 0;
        // SAFETY: PR_GET_PDEATHSIG writes an int.
        unsafe { libc::prctl(libc::PR_GET_PDEATHSIG, std::ptr::addr_of_mut!(sig)) };
        sig
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    0
}

/// The calling thread's `no_new_privs` flag.
fn no_new_privs() -> libc::c_int {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    // SAFETY: PR_GET_NO_NEW_PRIVS only reads the flag.
    return unsafe { libc::prctl(libc::PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) };
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    0
}

/// A new pseudo-terminal's master and slave (not this process's controlling terminal).
fn pty() -> (OwnedFd, OwnedFd) {
    // SAFETY: libc calls on fds this function owns; ptsname's buffer is copied at once.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt");
        let master = OwnedFd::from_raw_fd(master);
        assert_eq!(libc::grantpt(master.as_raw_fd()), 0);
        assert_eq!(libc::unlockpt(master.as_raw_fd()), 0);
        let name = std::ffi::CStr::from_ptr(libc::ptsname(master.as_raw_fd())).to_owned();
        let slave = libc::open(name.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
        assert!(slave >= 0, "open the pty slave");
        (master, OwnedFd::from_raw_fd(slave))
    }
}

/// The highest signal number this platform has.
fn max_signal() -> libc::c_int {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    return libc::SIGRTMAX();
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    return 31;
}

fn members(set: &libc::sigset_t) -> Vec<libc::c_int> {
    // SAFETY: `set` is an initialised signal set; sigismember only reads it.
    (1..=max_signal())
        .filter(|&s| unsafe { libc::sigismember(set, s) } == 1)
        .collect()
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn dumpable() -> Option<libc::c_int> {
    // SAFETY: a query.
    Some(unsafe { libc::prctl(libc::PR_GET_DUMPABLE) })
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn dumpable() -> Option<libc::c_int> {
    None
}

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
fn ids() -> ([libc::uid_t; 3], [libc::gid_t; 3]) {
    let (mut u, mut g) = ([0; 3], [0; 3]);
    // SAFETY: each pointer is a distinct element of a local array.
    unsafe {
        assert_eq!(libc::getresuid(&mut u[0], &mut u[1], &mut u[2]), 0);
        assert_eq!(libc::getresgid(&mut g[0], &mut g[1], &mut g[2]), 0);
    }
    (u, g)
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
fn ids() -> ([libc::uid_t; 3], [libc::gid_t; 3]) {
    // SAFETY: id queries cannot fail.
    unsafe {
        (
            [libc::getuid(), libc::geteuid(), libc::geteuid()],
            [libc::getgid(), libc::getegid(), libc::getegid()],
        )
    }
}

fn groups() -> Vec<libc::gid_t> {
    let mut groups = vec![0 as libc::gid_t; 65536];
    // SAFETY: getgroups writes at most `groups.len()` entries.
    let n = unsafe { libc::getgroups(groups.len() as libc::c_int, groups.as_mut_ptr()) };
    groups.truncate(usize::try_from(n).expect("getgroups"));
    groups
}

/// The limits the `Rlimit` scenarios set in the child.
fn rlimits() -> Vec<(u64, u64)> {
    [libc::RLIMIT_CORE, libc::RLIMIT_NOFILE]
        .into_iter()
        .map(|resource| {
            // SAFETY: getrlimit writes the struct.
            unsafe {
                let mut r: libc::rlimit = std::mem::zeroed();
                assert_eq!(libc::getrlimit(resource, &mut r), 0);
                (r.rlim_cur as u64, r.rlim_max as u64)
            }
        })
        .collect()
}

/// The umask, read from `/proc` where it is there (reading it with `umask` sets it).
fn umask() -> libc::mode_t {
    // portable-path: without /proc (macOS, FreeBSD) the mask is read with umask(2) below.
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        if let Some(v) = status.lines().find_map(|l| l.strip_prefix("Umask:")) {
            return libc::mode_t::from_str_radix(v.trim(), 8).expect("Umask line");
        }
    }
    // SAFETY: sets and puts back the mask; no other thread of this binary creates files now.
    unsafe {
        let old = libc::umask(0o077);
        libc::umask(old);
        old
    }
}

fn fd_table() -> Vec<FdEntry> {
    let mut table = Vec::new();
    for fd in 0..FD_PROBE {
        // SAFETY: fcntl and fstat only query an fd number, open or not.
        unsafe {
            let fdflags = libc::fcntl(fd, libc::F_GETFD);
            if fdflags == -1 {
                continue;
            }
            let flflags = libc::fcntl(fd, libc::F_GETFL);
            let mut st: libc::stat = std::mem::zeroed();
            assert_eq!(libc::fstat(fd, &mut st), 0, "fstat({fd})");
            table.push((fd, fdflags, flflags, st.st_dev as u64, st.st_ino as u64));
        }
    }
    table
}

fn dispositions() -> Vec<Disposition> {
    let mut all = Vec::new();
    for sig in 1..=max_signal() {
        // SAFETY: a query of the current action into a zeroed struct.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) == 0 {
                all.push((sig, old.sa_sigaction, old.sa_flags, members(&old.sa_mask)));
            }
        }
    }
    all
}

fn thread_mask() -> Vec<libc::c_int> {
    // SAFETY: a query into a zeroed set.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        assert_eq!(
            libc::pthread_sigmask(libc::SIG_SETMASK, std::ptr::null(), &mut set),
            0
        );
        members(&set)
    }
}

/// `name: before -> after` for each field that differs.
macro_rules! changed_fields {
    ($before:expr, $after:expr, $($field:ident),*) => {{
        let mut changed = Vec::new();
        $(
            if $before.$field != $after.$field {
                changed.push(format!(
                    "{}: {:?} -> {:?}",
                    stringify!($field),
                    $before.$field,
                    $after.$field
                ));
            }
        )*
        changed
    }};
}

impl ParentState {
    /// What differs from `before`, one line per field (empty: nothing).
    fn changes_since(&self, before: &ParentState) -> Vec<String> {
        changed_fields!(
            before,
            self,
            dumpable,
            uids,
            gids,
            groups,
            cwd,
            umask,
            rlimits,
            mask,
            dispositions,
            fds,
            errno,
            children,
            session,
            pdeathsig,
            no_new_privs,
            cgroup
        )
    }

    fn now(errno: libc::c_int) -> ParentState {
        let (uids, gids) = ids();
        ParentState {
            dumpable: dumpable(),
            uids,
            gids,
            groups: groups(),
            cwd: std::env::current_dir().expect("cwd"),
            umask: umask(),
            rlimits: rlimits(),
            mask: thread_mask(),
            dispositions: dispositions(),
            fds: fd_table(),
            errno,
            // SAFETY: waitpid with a null status pointer and WNOHANG.
            children: unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) },
            // SAFETY: queries that cannot fail for this process.
            session: unsafe { (libc::getsid(0), libc::getpgrp()) },
            pdeathsig: pdeathsig(),
            no_new_privs: no_new_privs(),
            cgroup: cgroup(),
        }
    }
}

// Where each libc keeps the calling thread's errno (as the crate's `platform/errno.rs` says).
#[cfg(any(target_os = "illumos", target_os = "solaris"))]
use libc::___errno as errno_location;
#[cfg(any(
    target_os = "android",
    target_os = "cygwin",
    target_os = "netbsd",
    target_os = "openbsd"
))]
use libc::__errno as errno_location;
#[cfg(any(target_os = "linux", target_os = "dragonfly"))]
use libc::__errno_location as errno_location;
#[cfg(any(target_os = "freebsd", target_vendor = "apple"))]
use libc::__error as errno_location;

fn errno_place() -> *mut libc::c_int {
    // SAFETY: the calling thread's errno.
    unsafe { errno_location() }
}

/// An errno value no call sets, so any write to `errno` shows.
const ERRNO_SENTINEL: libc::c_int = 7777;

/// What each scenario asks of the child.
#[derive(Clone, Copy, Debug)]
enum Scenario {
    /// `true`: succeeds.
    Plain,
    /// A program that does not exist: `ENOENT`.
    ExecFails,
    /// A working directory that does not exist: `ENOENT` from the child's `chdir`.
    CwdFails,
    /// Piped stdio and a mapped fd.
    Fds,
    /// `close_fds`, with an inheritable fd open in the parent.
    CloseFds,
    /// A child mask, reset signals, and a caught signal in the parent.
    Signals,
    /// Another uid, gid and groups (as root; else this process's own ids).
    Ids,
    /// Ids set, then the `chdir` fails: the child changed ids before it failed.
    IdsThenFail,
    /// More groups than the kernel allows: `EINVAL` from `setgroups`.
    IdsFail,
    /// A `pre_exec` closure that succeeds.
    PreExec,
    /// A `pre_exec` closure that fails with `EDOM`.
    PreExecFails,
    /// `create_pidfd`.
    Pidfd,
    /// `setsid`.
    Setsid,
    /// Resource limits (core 0/0, open files lowered) and a umask.
    Rlimit,
    /// An invalid limit (soft above hard) after a valid one: `EINVAL`.
    RlimitFails,
    /// A parent-death signal (where the platform has one) and a pty as the controlling
    /// terminal of the child's new session, its group in front.
    Terminal,
    /// A controlling terminal that is not a terminal: `ENOTTY`.
    TerminalFails,
    /// `foreground` of a file that is not a terminal: `ENOTTY` from the child's `tcsetpgrp`.
    ForegroundFails,
    /// Started in this process's own cgroup (`cgroup`, clone3 only; Linux with cgroup v2).
    Cgroup,
    /// A cgroup fd that is no cgroup directory: `EBADF` from clone3.
    CgroupFails,
    /// `retry_etxtbsy` with a program held open for writing: `ETXTBSY` after every retry.
    RetryFails,
    /// `kill_on_drop`, dropped while it runs: killed, reaped later by the reaper thread.
    KillOnDrop,
    /// A group leader that leaves a straggler: `wait_then_kill_process_group`.
    GroupKill,
    /// A running group leader and its background job: `kill_process_group`, then the wait.
    GroupKillNow,
    /// `wait_timeout` that times out, then one that sees the exit after a kill.
    WaitTimeout,
    /// `Command::from_std` of a std `Command` with env, directory and stdio.
    FromStd,
    /// `no_new_privs` (Linux, Android; clone3's `CLONE_NNP` where the kernel has it).
    NoNewPrivs,
    /// `no_new_privs`, then the `chdir` fails: the child had set it before it failed.
    NoNewPrivsThenFail,
    /// `kill_on_parent_death` with `no_new_privs` (clone3's `CLONE_PIDFD_AUTOKILL` where the
    /// kernel has it, `PR_SET_PDEATHSIG` elsewhere), dropped while it runs.
    KillOnParentDeath,
}

/// This process's cgroups (Linux `/proc/self/cgroup`).
#[cfg(target_os = "linux")]
fn cgroup() -> String {
    std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default()
}

/// No cgroups off Linux.
#[cfg(not(target_os = "linux"))]
fn cgroup() -> String {
    String::new()
}

/// No cgroups off Linux.
#[cfg(not(target_os = "linux"))]
fn own_cgroup() -> Option<std::fs::File> {
    None
}

/// This process's cgroup v2 directory, opened, where there is one.
#[cfg(target_os = "linux")]
fn own_cgroup() -> Option<std::fs::File> {
    let path = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let rel = path
        .lines()
        .find_map(|l| l.strip_prefix("0::"))?
        .trim()
        .to_owned();
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let root = mounts.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        right
            .starts_with("cgroup2 ")
            .then(|| left.split(' ').nth(4).map(str::to_owned))?
    })?;
    std::fs::File::open(format!("{root}{rel}")).ok()
}

/// A copy of `/bin/true` in a temporary folder, and a write fd to it kept open.
fn busy_program() -> (tempfile::TempDir, std::path::PathBuf, std::fs::File) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("busy");
    let true_path = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("true"))
        .find(|p| p.is_file())
        .expect("true on PATH");
    std::fs::copy(true_path, &path).expect("copy true");
    let w = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .expect("open for writing");
    (dir, path, w)
}

/// What happens to the child after a successful spawn, per scenario.
fn finish(scenario: Scenario, strategy: Strategy, mut child: spawnmatrix_spawn::Child) {
    use spawnmatrix_spawn::os::unix::process::ExitStatusExt as _;
    let ctx = format!("{strategy} {scenario:?}");
    match scenario {
        Scenario::KillOnDrop | Scenario::KillOnParentDeath => drop(child),
        Scenario::GroupKill => {
            let status = child.wait_then_kill_process_group().expect(&ctx);
            assert!(status.success(), "{ctx}: {status:?}");
        }
        Scenario::GroupKillNow => {
            child.kill_process_group().expect(&ctx);
            let status = child.wait().expect(&ctx);
            assert_eq!(status.signal(), Some(libc::SIGKILL), "{ctx}: {status:?}");
        }
        Scenario::WaitTimeout => {
            let short = child.wait_timeout(std::time::Duration::from_millis(20));
            assert!(short.expect(&ctx).is_none(), "{ctx}: ended early");
            child.kill().expect(&ctx);
            let long = child
                .wait_timeout(std::time::Duration::from_secs(10))
                .expect(&ctx);
            assert_eq!(long.and_then(|s| s.signal()), Some(libc::SIGKILL), "{ctx}");
        }
        _ => {
            let out = child.wait_with_output().expect("wait");
            assert!(out.status.success(), "{ctx}: {out:?}");
        }
    }
}

/// The uid and gid a root test process spawns as; its own otherwise.
fn other_ids() -> (libc::uid_t, libc::gid_t) {
    // SAFETY: id queries cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    if uid == 0 {
        (65534, 65534)
    } else {
        (uid, gid)
    }
}

extern "C" fn caught(_: libc::c_int) {}

/// Makes the command; what is returned (fds, a folder) stays alive in the parent for the spawn.
fn build(
    scenario: Scenario,
    strategy: Strategy,
) -> (Command, Vec<Box<dyn std::any::Any>>, Option<libc::c_int>) {
    let (uid, gid) = other_ids();
    let mut keep: Vec<Box<dyn std::any::Any>> = Vec::new();
    let mut want = None;
    let mut c = Command::new("true");
    match scenario {
        Scenario::Plain => {}
        Scenario::ExecFails => {
            c = Command::new("/nonexistent/program");
            want = Some(libc::ENOENT);
        }
        Scenario::CwdFails => {
            c.current_dir("/nonexistent/dir");
            want = Some(libc::ENOENT);
        }
        Scenario::Fds => {
            let (r, w) = pipe();
            c = Command::new("/bin/sh");
            c.args(["-c", "echo mapped >&5; echo out"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .fd(5, w);
            keep.push(Box::new(r));
        }
        Scenario::CloseFds => {
            let (r, w) = pipe();
            for fd in [&r, &w] {
                // SAFETY: clears FD_CLOEXEC on a pipe end this function owns.
                unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, 0) };
            }
            keep.push(Box::new((r, w)));
            c.close_fds(true);
        }
        Scenario::Signals => {
            c.signal_mask(&[libc::SIGUSR1])
                .reset_signals(&[libc::SIGINT]);
        }
        Scenario::Ids => {
            c.uid(uid).gid(gid).groups(&[gid]);
        }
        Scenario::IdsThenFail => {
            c.uid(uid).gid(gid).current_dir("/nonexistent/dir");
            want = Some(libc::ENOENT);
        }
        Scenario::IdsFail => {
            let too_many: Vec<u32> = (0..=65536).collect();
            c.groups(&too_many);
            want = Some(libc::EINVAL);
        }
        Scenario::PreExec => {
            // SAFETY: the closure does nothing.
            unsafe { c.pre_exec(|| Ok(())) };
        }
        Scenario::PreExecFails => {
            // SAFETY: the closure only builds an error (no allocation: a raw os error).
            unsafe { c.pre_exec(|| Err(io::Error::from_raw_os_error(libc::EDOM))) };
            want = Some(libc::EDOM);
        }
        Scenario::Pidfd => {
            #[cfg(target_os = "linux")]
            spawnmatrix_spawn::os::linux::process::CommandExt::create_pidfd(&mut c, true);
        }
        Scenario::Setsid => {
            c.setsid(true);
        }
        Scenario::Rlimit => {
            c.rlimit(libc::RLIMIT_CORE, 0, 0)
                .rlimit(libc::RLIMIT_NOFILE, 64, 64)
                .umask(0o077);
        }
        Scenario::RlimitFails => {
            c.rlimit(libc::RLIMIT_CORE, 0, 0)
                .umask(0o077)
                .rlimit(libc::RLIMIT_NOFILE, 10, 5);
            want = Some(libc::EINVAL);
        }
        Scenario::Terminal => {
            if cfg!(any(
                target_os = "linux",
                target_os = "android",
                target_os = "freebsd"
            )) {
                c.parent_death_signal(libc::SIGTERM);
            }
            let (master, slave) = pty();
            c.foreground(slave.try_clone().expect("dup"))
                .controlling_terminal(slave);
            keep.push(Box::new(master));
        }
        Scenario::NoNewPrivs => {
            c.no_new_privs(true);
        }
        Scenario::KillOnParentDeath => {
            c = Command::new("sleep");
            c.arg("5").no_new_privs(true).kill_on_parent_death(true);
        }
        Scenario::NoNewPrivsThenFail => {
            c.no_new_privs(true).current_dir("/nonexistent/dir");
            want = Some(libc::ENOENT);
        }
        Scenario::TerminalFails => {
            c.controlling_terminal(std::fs::File::open("/dev/null").expect("open"));
            want = Some(libc::ENOTTY);
        }
        Scenario::ForegroundFails => {
            c.process_group(0)
                .foreground(std::fs::File::open("/dev/null").expect("open"));
            want = Some(libc::ENOTTY);
        }
        Scenario::Cgroup => match own_cgroup() {
            Some(dir) => {
                c.cgroup(dir);
            }
            None => println!("no cgroup v2 directory here: {scenario:?} runs as Plain"),
        },
        Scenario::CgroupFails => {
            c.cgroup(std::fs::File::open("/").expect("open /"));
            want = Some(libc::EBADF);
        }
        Scenario::RetryFails => {
            let (dir, path, w) = busy_program();
            c = Command::new(&path);
            c.retry_etxtbsy(3);
            // Busy until the scenario ends; then the folder goes.
            keep.push(Box::new((w, dir)));
            want = Some(libc::ETXTBSY);
        }
        Scenario::KillOnDrop => {
            c = Command::new("sleep");
            c.arg("5").kill_on_drop(true);
        }
        Scenario::GroupKill => {
            c = Command::new("sh");
            c.args(["-c", "sleep 5 & exit 0"]).process_group(0);
        }
        Scenario::GroupKillNow => {
            c = Command::new("sh");
            c.args(["-c", "sleep 5 & wait"]).process_group(0);
        }
        Scenario::WaitTimeout => {
            c = Command::new("sleep");
            c.arg("5");
        }
        Scenario::FromStd => {
            let mut std_cmd = std::process::Command::new("sh");
            std_cmd
                .args(["-c", "test \"$FROM_STD\" = yes && test \"$(pwd)\" = /"])
                .env("FROM_STD", "yes")
                .current_dir("/")
                .stdin(std::process::Stdio::null());
            c = Command::from_std(&std_cmd).expect("from_std");
        }
    }
    c.strategy(strategy);
    (c, keep, want)
}

fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two new fds into the array.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both are new fds nobody else owns.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

/// Runs the scenario: spawns, waits, drops everything the spawn made; checks the outcome.
/// Returns `errno` as the spawn left it (set to [`ERRNO_SENTINEL`] before).
fn run(scenario: Scenario, strategy: Strategy) -> libc::c_int {
    let (mut c, keep, want) = build(scenario, strategy);
    // SAFETY: writes the calling thread's errno.
    unsafe { *errno_place() = ERRNO_SENTINEL };
    let spawned = c.spawn();
    // SAFETY: reads the calling thread's errno.
    let errno_after = unsafe { *errno_place() };
    match spawned {
        Ok(child) => {
            assert_eq!(
                want, None,
                "{strategy} {scenario:?}: spawned, expected an error"
            );
            finish(scenario, strategy, child);
        }
        Err(e) if e.kind() == io::ErrorKind::Unsupported => {
            // Only clone3 starts a child in a cgroup, and Auto only where clone3 runs.
            let cgroup = matches!(scenario, Scenario::Cgroup | Scenario::CgroupFails);
            // no_new_privs is Linux's and Android's only.
            let nnp = matches!(
                scenario,
                Scenario::NoNewPrivs | Scenario::NoNewPrivsThenFail | Scenario::KillOnParentDeath
            ) && !cfg!(any(target_os = "linux", target_os = "android"));
            assert!(
                cgroup || nnp || (strategy != Strategy::Auto && strategy != Strategy::Fork),
                "{strategy} {scenario:?}: {e}"
            );
        }
        Err(e) => assert_eq!(
            (e.raw_os_error(), want.is_some()),
            (want, true),
            "{strategy} {scenario:?}: {e}"
        ),
    }
    drop(c);
    drop(keep);
    errno_after
}

/// Every strategy × scenario: the parent's state after equals the state before.
#[rstest]
fn parent_is_untouched(
    #[values(
        Strategy::Auto,
        Strategy::PosixSpawn,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::Vfork,
        Strategy::Fork
    )]
    strategy: Strategy,
    #[values(
        Scenario::Plain,
        Scenario::ExecFails,
        Scenario::CwdFails,
        Scenario::Fds,
        Scenario::CloseFds,
        Scenario::Signals,
        Scenario::Ids,
        Scenario::IdsThenFail,
        Scenario::IdsFail,
        Scenario::PreExec,
        Scenario::PreExecFails,
        Scenario::Pidfd,
        Scenario::Setsid,
        Scenario::Rlimit,
        Scenario::RlimitFails,
        Scenario::Terminal,
        Scenario::TerminalFails,
        Scenario::ForegroundFails,
        Scenario::Cgroup,
        Scenario::CgroupFails,
        Scenario::RetryFails,
        Scenario::KillOnDrop,
        Scenario::GroupKill,
        Scenario::GroupKillNow,
        Scenario::WaitTimeout,
        Scenario::FromStd,
        Scenario::NoNewPrivs,
        Scenario::NoNewPrivsThenFail,
        Scenario::KillOnParentDeath
    )]
    scenario: Scenario,
) {
    let _g = serial();
    // A caught signal, so the dispositions hold a handler the child must not change here.
    // SAFETY: installs a do-nothing handler for SIGUSR2, which nothing else here uses.
    unsafe {
        let mut act: libc::sigaction = std::mem::zeroed();
        act.sa_sigaction = caught as extern "C" fn(libc::c_int) as usize;
        assert_eq!(
            libc::sigaction(libc::SIGUSR2, &act, std::ptr::null_mut()),
            0
        );
    }
    let before = ParentState::now(ERRNO_SENTINEL);
    let errno = run(scenario, strategy);
    let after = ParentState::now(errno);
    if after.dumpable != before.dumpable {
        // Put it back, so the cases after this one start from the same state.
        // SAFETY: sets this process's dumpable flag to what it was.
        #[cfg(any(target_os = "linux", target_os = "android"))]
        unsafe {
            libc::prctl(
                libc::PR_SET_DUMPABLE,
                before.dumpable.unwrap_or(1) as libc::c_ulong,
            )
        };
    }
    let mut changed = after.changes_since(&before);
    // A kill-on-drop child is reaped after the drop, by the reaper thread, which then ends
    // and closes its fds: the state comes back within moments, never to stay changed.
    let settle = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !changed.is_empty()
        && matches!(scenario, Scenario::KillOnDrop | Scenario::KillOnParentDeath)
        && std::time::Instant::now() < settle
    {
        std::thread::sleep(std::time::Duration::from_millis(10));
        changed = ParentState::now(errno).changes_since(&before);
    }
    assert!(
        changed.is_empty(),
        "{strategy} {scenario:?} changed the parent: {}",
        changed.join("; ")
    );
}

/// The test itself sees a change: a process made non-dumpable by hand differs.
#[cfg(any(target_os = "linux", target_os = "android"))]
#[test]
fn a_changed_dumpable_flag_is_seen() {
    let _g = serial();
    let before = ParentState::now(0);
    let flipped = libc::c_ulong::from(before.dumpable != Some(1));
    // SAFETY: sets this process's dumpable flag, put back below.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, flipped) };
    let after = ParentState::now(0);
    // SAFETY: as above.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 1 - flipped) };
    assert_eq!(
        after.changes_since(&before),
        [format!(
            "dumpable: {:?} -> {:?}",
            before.dumpable,
            Some(flipped as libc::c_int)
        )]
    );
}

/// `CommandExt::exec` that fails touches no fd but the stdio it was given, and puts those
/// back: the fd table (numbers, flags, files) is the same after the error. (The rest of the
/// process it puts back too: `failed_exec_puts_back_what_it_changed`.)
#[rstest]
#[case::missing_program("/nonexistent/program", None, false)]
#[case::bad_directory("true", Some("/nonexistent/dir"), false)]
#[case::permuted_stdio("/nonexistent/program", None, true)]
fn failed_exec_leaves_the_fd_table(
    #[case] program: &str,
    #[case] cwd: Option<&str>,
    #[case] permuted: bool,
) {
    let _g = serial();
    let before = fd_table();
    let file = std::fs::File::create(
        std::env::temp_dir().join(format!("parent-untouched-exec-{}", std::process::id())),
    )
    .unwrap();
    let mut c = Command::new(program);
    c.stdin(Stdio::null()).stdout(file);
    if permuted {
        c.stdout(io::stderr()).stderr(io::stdout());
    }
    if let Some(dir) = cwd {
        c.current_dir(dir);
    }
    let e = c.exec();
    assert_eq!(e.raw_os_error(), Some(libc::ENOENT), "{e}");
    drop(c);
    assert_eq!(fd_table(), before, "a failed exec changed the fd table");
}

/// A mapping above stdio or `close_fds` would replace or close fds other code owns: `exec`
/// refuses them, and the fd table is the same afterwards.
#[rstest]
#[case::mapping_above_stdio(true, false)]
#[case::close_fds(false, true)]
fn exec_refuses_to_touch_other_fds(#[case] map: bool, #[case] close: bool) {
    let _g = serial();
    let (r, w) = pipe();
    // The write end goes to the command (or is dropped), which closes it.
    let gone = w.as_raw_fd();
    let mut before = fd_table();
    before.retain(|e| e.0 != gone);
    let mut c = Command::new("true");
    if map {
        // Onto the number the pipe's read end has here: other code's fd.
        c.fd(r.as_raw_fd(), w);
    } else {
        drop(w);
    }
    c.close_fds(close);
    let e = c.exec();
    assert_eq!(e.kind(), io::ErrorKind::Unsupported, "{e}");
    drop(c);
    assert_eq!(fd_table(), before, "exec changed the fd table");
    drop(r);
}

/// The variable that makes this binary run [`role_exec_ids`].
#[cfg(target_os = "linux")]
const ROLE: &str = "PARENT_UNTOUCHED_ROLE";

/// A failed `exec` with ids changes them for every thread (libc's process-wide calls, as
/// std), never for the calling thread alone. Runs in a fresh copy of this binary, which ends
/// up as nobody. Linux only: each thread's uids are read from `/proc/self/task`.
#[cfg(target_os = "linux")]
#[test]
fn failed_exec_with_ids_changes_every_thread() {
    let _g = serial();
    // SAFETY: getuid cannot fail.
    if unsafe { libc::getuid() } != 0 {
        eprintln!("not root: another uid cannot be taken, nothing to compare");
        return;
    }
    let out = std::process::Command::new(own_exe())
        .args(["--ignored", "--exact", "role_exec_ids", "--nocapture"])
        .env(ROLE, "1")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("every thread is 65534"), "{text}");
}

/// The role: a second thread waits while this one runs a failing `exec` as nobody; then
/// every thread's real, effective, saved and fs uid must be 65534.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "run by failed_exec_with_ids_changes_every_thread"]
fn role_exec_ids() {
    if std::env::var_os(ROLE).is_none() {
        return;
    }
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    // Without /proc (a bare root) the waiter says its own ids once the exec has failed.
    let waiter = std::thread::spawn(move || rx.recv().ok().map(|()| thread_uids()));
    let e = Command::new("/nonexistent/program")
        .uid(65534)
        .gid(65534)
        .exec();
    assert_eq!(e.raw_os_error(), Some(libc::ENOENT), "{e}");
    let mut uids = Vec::new();
    let tasks = match std::fs::read_dir("/proc/self/task") {
        Ok(tasks) => tasks,
        Err(_) if std::fs::metadata("/proc/self").is_err() => {
            tx.send(()).unwrap();
            let theirs = waiter.join().unwrap().expect("the waiter's ids");
            let uids = [thread_uids(), theirs];
            assert!(
                uids.iter().all(|u| u == "65534 65534 65534 65534"),
                "threads' uids (asked by each thread, no /proc): {uids:?}"
            );
            println!("every thread is 65534: {uids:?}");
            return;
        }
        Err(e) => panic!("/proc/self/task: {e}"),
    };
    for task in tasks {
        let status = std::fs::read_to_string(task.unwrap().path().join("status")).unwrap();
        let line = status.lines().find(|l| l.starts_with("Uid:")).unwrap();
        uids.push(
            line.split_whitespace()
                .skip(1)
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    tx.send(()).unwrap();
    waiter.join().unwrap();
    assert!(uids.len() >= 2, "{uids:?}");
    assert!(
        uids.iter().all(|u| u == "65534 65534 65534 65534"),
        "threads' uids: {uids:?}"
    );
    println!("every thread is 65534: {uids:?}");
}

/// The calling thread's real, effective, saved and fs uid, as `/proc`'s `Uid:` line has them
/// (the kernel keeps them per thread; `getresuid` and `setfsuid(-1)` ask for the caller's).
#[cfg(target_os = "linux")]
fn thread_uids() -> String {
    let (mut r, mut e, mut s) = (0, 0, 0);
    // SAFETY: three valid out-pointers; setfsuid(-1) changes nothing and returns the fs uid.
    let fs = unsafe {
        assert_eq!(libc::getresuid(&mut r, &mut e, &mut s), 0);
        libc::setfsuid(libc::uid_t::MAX)
    };
    format!("{r} {e} {s} {fs}")
}

/// Linux: a child with ids is non-dumpable from its id calls on (so with
/// `fs.suid_dumpable=1` the new user cannot attach before `execve`). As root with `uid(0)`
/// the credentials do not change, so the kernel leaves the flag at 1: only the library's own
/// `prctl` makes the `pre_exec` closure (which runs after the ids) see 0.
#[cfg(target_os = "linux")]
#[test]
fn child_with_ids_is_not_dumpable_before_exec() {
    let _g = serial();
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let mut c = Command::new(true_program());
    c.uid(uid);
    // SAFETY: the closure only makes a prctl query (async-signal-safe).
    unsafe {
        c.pre_exec(|| match libc::prctl(libc::PR_GET_DUMPABLE) {
            0 => Ok(()),
            _ => Err(io::Error::from_raw_os_error(libc::EDOM)),
        })
    };
    let r = c.status();
    assert!(
        r.as_ref().is_ok_and(|s| s.success()),
        "dumpable in the child after its id calls: {r:?}"
    );
}

#[path = "support/isolated.rs"]
mod isolated;

/// A failed `CommandExt::exec` puts back what it changed in this process and can change
/// back: the umask, the thread's signal mask, the dispositions it reset (a caught `SIGINT`
/// here), the soft resource limits, the process group and the parent-death signal. (What it
/// cannot put back is documented: a new session and its controlling terminal, ids, a hard
/// limit lowered.) Runs in a copy of this binary, as the exec changes the process.
#[test]
fn failed_exec_puts_back_what_it_changed() {
    let _g = serial();
    isolated::isolated("failed_exec_puts_back_what_it_changed", || {
        // SAFETY: installs a do-nothing handler for SIGINT in this sub-process.
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = caught as extern "C" fn(libc::c_int) as usize;
            assert_eq!(libc::sigaction(libc::SIGINT, &act, std::ptr::null_mut()), 0);
        }
        let before = ParentState::now(0);
        let mut core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: a query into a local struct.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_CORE, &mut core) }, 0);
        let mut c = Command::new("/nonexistent/program");
        c.umask(0o077)
            .rlimit(libc::RLIMIT_CORE, 0, core.rlim_max as _)
            .signal_mask(&[libc::SIGUSR1])
            .reset_signals(&[libc::SIGINT])
            .process_group(0);
        if cfg!(any(
            target_os = "linux",
            target_os = "android",
            target_os = "freebsd"
        )) {
            c.parent_death_signal(libc::SIGTERM);
        }
        let e = c.exec();
        assert_eq!(e.raw_os_error(), Some(libc::ENOENT), "{e}");
        drop(c);
        let changed = ParentState::now(0).changes_since(&before);
        assert!(
            changed.is_empty(),
            "a failed exec left: {}",
            changed.join("; ")
        );
    });
}
