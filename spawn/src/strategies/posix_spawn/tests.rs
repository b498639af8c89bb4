//! The `posix_spawn` strategy's own promises, counted where only the strategy can see them.

use std::cell::Cell;

use rstest::rstest;

use crate::{Command, Strategy};

thread_local! {
    /// `posix_spawn` (or `pidfd_spawn`) calls made on this thread.
    static SPAWN_CALLS: Cell<usize> = const { Cell::new(0) };
}

pub(super) fn count_spawn_call() {
    SPAWN_CALLS.with(|c| c.set(c.get() + 1));
}

fn calls() -> usize {
    SPAWN_CALLS.with(Cell::get)
}

/// A `PATH` search creates one process, for the candidate that exists, however many entries
/// come before it; when none exists, one is created, for the last candidate (so the child's
/// own setup errors would come first, as under every other strategy), and the `execvp`
/// rule's errno comes back.
#[rstest]
#[case::found_third("/nonexistent-spawnmatrix-a:/nonexistent-spawnmatrix-b:{true}", 1, None)]
#[case::none_exists("/nonexistent-spawnmatrix-a:/nonexistent-spawnmatrix-b", 1, Some(libc::ENOENT))]
#[case::not_a_directory("/nonexistent-spawnmatrix-a:/dev/null", 1, Some(libc::ENOTDIR))]
fn path_misses_create_no_process(
    #[case] path: &str,
    #[case] want_calls: usize,
    #[case] want_errno: Option<libc::c_int>,
) {
    if !Strategy::PosixSpawn.is_available() {
        eprintln!("skipped: posix_spawn is not a strategy here");
        return;
    }
    // {true}: the folder `true` is in on this PATH (/bin, /usr/bin, or /usr/local/bin in a
    // bare root).
    let path = &path.replace("{true}", &true_dir());
    let before = calls();
    let r = Command::new("true")
        .env("PATH", path)
        .strategy(Strategy::PosixSpawn)
        .spawn();
    let made = calls() - before;
    match (r, want_errno) {
        (Ok(mut child), None) => assert!(child.wait().unwrap().success()),
        (Err(e), Some(errno)) => assert_eq!(e.raw_os_error(), Some(errno), "{e}"),
        (r, _) => panic!("unexpected {:?}", r.map(|c| c.id())),
    }
    assert_eq!(made, want_calls, "posix_spawn calls for PATH={path}");
}

/// The first folder on this process's `PATH` that holds an executable `true`.
fn true_dir() -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
    std::env::split_paths(&path)
        .find(|dir| {
            std::fs::metadata(dir.join("true"))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .and_then(|dir| dir.to_str().map(str::to_string))
        .unwrap_or_else(|| panic!("no executable true on PATH ({path:?})"))
}

/// A pidfd whose pid cannot be read: the spawn is an error only after the child behind the
/// pidfd has been killed and reaped through it (nothing runs on, no zombie is left).
#[cfg(target_os = "linux")]
#[test]
fn a_pidfd_without_a_readable_pid_is_killed_and_reaped_before_the_error() {
    let child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let fd = crate::platform::pidfd::open(pid).unwrap();
    let start = std::time::Instant::now();
    let e = super::spawned_from(fd, Err(std::io::Error::other("no /proc"))).err().unwrap();
    assert!(e.to_string().contains("killed and reaped"), "{e}");
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    // SAFETY: signal 0 only checks; ESRCH only once the process is reaped.
    assert_eq!(unsafe { libc::kill(pid, 0) }, -1, "the child runs on or is a zombie");
    std::mem::forget(child); // reaped through the pidfd; std's Child must not wait again
}

/// A child reaped before its pid could be read (`SIGCHLD` ignored) is a spawned child, with
/// no pid: never the spawn's error.
#[cfg(target_os = "linux")]
#[test]
fn a_child_reaped_before_its_pid_was_read_is_a_spawned_child() {
    let child = std::process::Command::new("true").spawn().unwrap();
    let fd = crate::platform::pidfd::open(child.id() as libc::pid_t).unwrap();
    let spawned = super::spawned_from(fd, Ok(crate::platform::pidfd::Identity::Reaped(None))).unwrap();
    assert_eq!(spawned.pid, 0);
    assert!(matches!(spawned.pidfd, Some(Ok(_))));
    let mut child = child;
    child.wait().unwrap();
}
