//! Helpers the spawn test files share: running one test at a time, forcing a strategy and
//! checking the refusal of an unavailable one, the child helper's report, and fd set-up.

#![allow(dead_code)] // Each test file uses its own subset.

use std::ffi::OsStr;
use std::fs;
use std::io::{self, ErrorKind};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::{Mutex, MutexGuard};

use spawnmatrix::child::{self, ChildState};
use spawnmatrix::spawn::{Child, Command, Stdio, Strategy};

/// Every strategy, the unavailable ones included (they must refuse).
pub const ALL: [Strategy; 6] = Strategy::ALL;

/// The rstest template of one test case per strategy, the unavailable ones included (they
/// must refuse): `#[apply(every_strategy)]`.
#[rstest_reuse::template]
#[rstest::rstest]
pub fn every_strategy(
    #[values(
        Strategy::Auto,
        Strategy::PosixSpawn,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::Vfork,
        Strategy::Fork
    )]
    strategy: Strategy,
) {
}

static SERIAL: Mutex<()> = Mutex::new(());

/// Runs tests one at a time (a failed test must not stop the others, so poison is ignored).
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// A command forced to `strategy`.
pub fn command(program: impl AsRef<OsStr>, strategy: Strategy) -> Command {
    let mut c = Command::new(program);
    c.strategy(strategy);
    c
}

/// Spawns; for a strategy this platform lacks, checks the refusal and returns `None`.
pub fn spawn_or_refused(c: &mut Command, strategy: Strategy) -> Option<io::Result<Child>> {
    let r = c.spawn();
    if strategy.is_available() {
        if let Ok(child) = &r {
            if strategy != Strategy::Auto {
                assert_eq!(child.strategy(), strategy);
            }
        }
        Some(r)
    } else {
        let e = r.expect_err("an unavailable strategy must refuse");
        assert_eq!(e.kind(), ErrorKind::Unsupported, "{e}");
        None
    }
}

/// This process has no child at all: none running, no zombie.
pub fn assert_no_children() {
    // SAFETY: waitpid with a null status pointer.
    let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
    let e = io::Error::last_os_error();
    assert_eq!(r, -1, "a child is left over (pid {r})");
    assert_eq!(e.raw_os_error(), Some(libc::ECHILD));
}

/// A command running the child helper with stdio on `/dev/null`, reporting to a temporary
/// file (the option comes first, so later arguments may be anything).
pub fn helper(strategy: Strategy) -> (Command, tempfile::NamedTempFile) {
    let report = tempfile::NamedTempFile::new().unwrap();
    let mut c = command(child::helper_path().unwrap(), strategy);
    c.arg("--report")
        .arg(report.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    (c, report)
}

/// Runs the helper command and returns its report, or `None` after checking the refusal of
/// an unavailable strategy.
pub fn observe(
    (c, report): (&mut Command, tempfile::NamedTempFile),
    strategy: Strategy,
) -> Option<ChildState> {
    let mut child = spawn_or_refused(c, strategy)?.expect("the helper must start");
    let status = child.wait().unwrap();
    assert!(status.success(), "helper: {status}");
    Some(ChildState::read(report.path()).unwrap())
}

/// The fds this process has open: the library's listing, which reads `/proc/self/fd` on
/// Linux when it is mounted and scans with `fcntl` elsewhere (FreeBSD's `/dev/fd` shows only
/// 0-2 without fdescfs, and macOS and FreeBSD may have no `/proc`).
pub fn open_fds() -> Vec<i32> {
    spawnmatrix::conformance::sys::open_fds()
}

/// The first `name` on this process's `PATH` that is an executable file. Tests run `true`,
/// `cat` and the like through it, because their directories differ by platform (`/bin/true`
/// on Linux, `/usr/bin/true` on macOS and FreeBSD).
pub fn on_path(name: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
        .unwrap_or_else(|| panic!("no executable {name} on PATH ({path:?})"))
}

/// `true` from `PATH` (see [`on_path`]).
pub fn true_program() -> std::path::PathBuf {
    static TRUE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    TRUE.get_or_init(|| on_path("true")).clone()
}

/// Marks every fd of this process above stderr close-on-exec, so a child can only get what
/// the command maps (the test harness may have inherited open fds).
pub fn cloexec_all_inherited() {
    for fd in open_fds().into_iter().filter(|&fd| fd > 2) {
        // SAFETY: setting a flag; an fd that was the directory listing's is closed by now
        // and fails harmlessly.
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
}

/// A copy of `fd` without `FD_CLOEXEC`, as a careless caller might pass.
pub fn dup_inheritable(fd: &impl AsRawFd) -> OwnedFd {
    // SAFETY: dup of an open fd; the new fd is owned by the result.
    let new = unsafe { libc::dup(fd.as_raw_fd()) };
    assert!(new >= 0);
    // SAFETY: a new fd nobody else owns.
    unsafe { OwnedFd::from_raw_fd(new) }
}

/// The fd numbers the helper reported, ascending.
pub fn fd_numbers(state: &ChildState) -> Vec<i32> {
    state.fds.iter().map(|f| f.fd).collect()
}
