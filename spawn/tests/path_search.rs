//! The program search gives the same answer under every strategy: the `execvp` rule, after
//! the child's own setup. A child whose setup fails before its first `execve` (its `chdir`,
//! its `setpgid`) reports that error, whichever strategy made it, even when no candidate on
//! `PATH` exists: the `posix_spawn` strategy skips candidates the parent sees are missing
//! without a process, and that shortcut must not hide the child's earlier error.

use std::io;

use spawnmatrix_spawn::os::unix::process::CommandExt;
use spawnmatrix_spawn::{Command, Strategy};

#[path = "support/strategies.rs"]
mod strategies;
use strategies::STRATEGIES;

/// The errno of each available strategy's spawn of `make()`'s command.
fn errnos(make: impl Fn() -> Command) -> Vec<(Strategy, Option<i32>)> {
    STRATEGIES
        .into_iter()
        .filter(|s| s.is_available())
        .filter_map(|s| match make().strategy(s).spawn() {
            Err(e) if e.kind() == io::ErrorKind::Unsupported => None,
            Err(e) => Some((s, e.raw_os_error())),
            Ok(mut c) => {
                let _ = c.kill();
                let _ = c.wait();
                Some((s, None))
            }
        })
        .collect()
}

fn assert_all(got: Vec<(Strategy, Option<i32>)>, want: i32, what: &str) {
    assert!(!got.is_empty());
    for (s, e) in &got {
        assert_eq!(*e, Some(want), "{s}: {what} (all: {got:?})");
    }
}

/// No candidate exists, and the new working directory is a file: the child's `chdir` fails
/// first, with `ENOTDIR`, before any search.
#[test]
fn a_failing_chdir_comes_before_a_search_that_finds_nothing() {
    let got = errnos(|| {
        let mut c = Command::new("spawnmatrix-no-such-program");
        c.env(
            "PATH",
            "/nonexistent-spawnmatrix-a:/nonexistent-spawnmatrix-b",
        )
        .current_dir("/dev/null");
        c
    });
    assert_all(got, libc::ENOTDIR, "chdir to a file");
}

/// No candidate exists, and the child cannot join the process group asked for (the group of
/// a session leader made for it, so certainly in another session; group 1 is not, where the
/// test runs in pid 1's session, as in a container): `setpgid`'s `EPERM` comes first.
#[test]
fn a_failing_setpgid_comes_before_a_search_that_finds_nothing() {
    let mut leader = Command::new("sleep")
        .arg("30")
        .setsid(true)
        .spawn()
        .expect("a session leader");
    let other_session = leader.id() as libc::pid_t;
    let got = errnos(|| {
        let mut c = Command::new("spawnmatrix-no-such-program");
        c.env(
            "PATH",
            "/nonexistent-spawnmatrix-a:/nonexistent-spawnmatrix-b",
        )
        .process_group(other_session);
        c
    });
    leader.kill().expect("kill");
    leader.wait().expect("wait");
    assert_all(got, libc::EPERM, "setpgid into another session's group");
}

/// A candidate missing in the new directory (relative `PATH` entry) with a working chdir:
/// still the search's `ENOENT` everywhere.
#[test]
fn a_search_that_finds_nothing_after_a_good_chdir_is_enoent() {
    let got = errnos(|| {
        let mut c = Command::new("spawnmatrix-no-such-program");
        c.env(
            "PATH",
            "/nonexistent-spawnmatrix-a:relative-spawnmatrix-dir",
        )
        .current_dir("/");
        c
    });
    assert_all(got, libc::ENOENT, "nothing found");
}
