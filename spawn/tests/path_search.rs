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

/// The directory `true` is in on this host's `PATH` (`/bin` on Linux, `/usr/bin` on macOS).
fn dir_of_true() -> std::path::PathBuf {
    let path = std::env::var_os("PATH").expect("PATH");
    std::env::split_paths(&path)
        .find(|d| d.join("true").is_file())
        .expect("true on PATH")
}

/// PATH searches that miss, one table for every platform and strategy (the `execvp` rule,
/// `child_side/search.rs`; the posix_spawn strategy skips what the parent sees missing,
/// `strategies/posix_spawn/prefilter.rs`, and that must not change the answer). Each `PATH`
/// entry names a directory under a fresh temporary one: `missing` does not exist, `noexec`
/// holds a `prog` without execute permission, `isdir` a directory `prog`, `file` is a regular
/// file (so `file/prog` fails with `ENOTDIR`), `TRUE` is where `true` is (the program is then
/// `true`, found after the misses). 0: the spawn succeeds.
#[rstest::rstest]
#[case::only_missing_dirs("missing:missing2", libc::ENOENT)]
#[case::a_file_as_the_last_entry("missing:file", libc::ENOTDIR)]
#[case::a_file_entry_then_a_missing_dir("file:missing", libc::ENOENT)]
#[case::not_executable("missing:noexec:missing2", libc::EACCES)]
#[case::a_directory_named_like_it("isdir:missing", libc::EACCES)]
#[case::not_executable_then_found("noexec:missing:TRUE", 0)]
fn misses_give_the_same_errno_under_every_strategy(#[case] entries: &str, #[case] want: i32) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("noexec")).unwrap();
    std::fs::write(d.join("noexec/prog"), "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(
        d.join("noexec/prog"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    std::fs::create_dir_all(d.join("isdir/prog")).unwrap();
    std::fs::write(d.join("file"), "").unwrap();
    let program = if entries.contains("TRUE") {
        "true"
    } else {
        "prog"
    };
    if program == "true" {
        // The non-executable file must shadow the real program's name.
        std::fs::rename(d.join("noexec/prog"), d.join("noexec/true")).unwrap();
    }
    let path = entries
        .split(':')
        .map(|e| match e {
            "TRUE" => dir_of_true(),
            e => d.join(e),
        })
        .collect::<Vec<_>>();
    let path = std::env::join_paths(path).unwrap();
    let got = errnos(|| {
        let mut c = Command::new(program);
        c.env("PATH", &path);
        c
    });
    if want == 0 {
        assert!(!got.is_empty());
        for (s, e) in &got {
            assert_eq!(*e, None, "{s}: {entries} (all: {got:?})");
        }
    } else {
        assert_all(got, want, entries);
    }
}
