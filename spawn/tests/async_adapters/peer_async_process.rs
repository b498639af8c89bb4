//! async-process's own tests, each restated on the `async-io` adapter in this project's
//! words: one test per upstream test, named after the behaviour it checks. Read at
//! smol-rs/async-process `8a81e28d` (2025-09-14); no code is copied.
//!
//! | upstream (file: test) | here |
//! |---|---|
//! | `tests/std.rs`: `smoke` | [`a_true_child_ends_in_success`] |
//! | `tests/std.rs`: `smoke_driven` | [`a_child_finishes_beside_the_never_ending_driver`] |
//! | `tests/std.rs`: `smoke_failure` | [`spawning_a_missing_program_is_an_error`] |
//! | `tests/std.rs`: `exit_reported_right` | [`an_exit_code_of_one_is_reported`] |
//! | `tests/std.rs`: `signal_reported_right` | [`a_killed_child_reports_sigkill`] |
//! | `tests/std.rs`: `stdout_works` | [`piped_stdout_is_read_to_its_end`] |
//! | `tests/std.rs`: `set_current_dir_works` | [`the_child_runs_in_the_directory_set`] |
//! | `tests/std.rs`: `stdin_works` | [`a_line_written_to_stdin_comes_back_on_stdout`] |
//! | `tests/std.rs`: `test_process_status` | [`command_status_reports_failure_and_success`] |
//! | `tests/std.rs`: `test_process_output_fail_to_start` | [`output_of_a_missing_program_is_not_found`] |
//! | `tests/std.rs`: `test_process_output_output` | [`output_captures_stdout_and_an_empty_stderr`] |
//! | `tests/std.rs`: `test_process_output_error` | [`output_of_a_failing_program_captures_its_stderr`] |
//! | `tests/std.rs`: `test_finish_once` | [`child_status_gives_the_exit_code`] |
//! | `tests/std.rs`: `test_finish_twice` | [`child_status_twice_gives_the_same_code`] |
//! | `tests/std.rs`: `test_wait_with_output_once` | [`child_output_reads_the_piped_stdout`] |
//! | `tests/std.rs`: `test_override_env` | [`a_cleared_environment_holds_only_what_was_set`] |
//! | `tests/std.rs`: `test_add_to_env` | [`an_added_variable_reaches_the_child`] |
//! | `tests/std.rs`: `test_capture_env_at_spawn` | [`the_environment_is_taken_at_spawn_not_when_built`] |
//! | `tests/std.rs`: `child_status_preserved_with_kill_on_drop` | [`output_of_a_kill_on_drop_child_keeps_its_status`] |
//! | `tests/std.rs`: `child_as_raw_handle` (Windows) | [`the_exit_fd_is_the_process_id_names`] (Linux: the pidfd is the Unix handle) |
//! | `tests/std.rs`: `test_spawn_multiple_with_stdio` | [`one_command_spawns_twice_with_piped_stdio`] |
//! | `tests/std.rs`: `test_into_inner` | [`into_stdio_feeds_the_next_child_a_blocking_pipe`] |
//! | `tests/sleep.rs`: `unix_sleep` | [`status_awaits_a_sleeping_child`] |
//!
//! Not ported: `tests/sleep.rs`: `windows_sleep` (Windows `ping` as a one-second sleep; the
//! same behaviour is `status_awaits_a_sleeping_child`).
//!
//! Where the adapter differs from async-process by design: `Child::new` takes over a child
//! the crate's own `Command` spawned (there is no second `Command` type), so
//! `Command::status`/`output` are the module's `status(&mut cmd)`/`output(&mut cmd)`, and
//! `into_stdio` is a method of the `IntoStdio` trait on the adapter's `Async` ends.

use super::*;
use futures_lite::future::{block_on, FutureExt};
use futures_lite::{AsyncReadExt, AsyncWriteExt};
use spawnmatrix_spawn::async_io::{driver, output, status, Child, IntoStdio};
use spawnmatrix_spawn::os::unix::process::ExitStatusExt;

fn adopt(c: &mut Command) -> Child {
    Child::new(c.spawn().unwrap()).unwrap()
}

#[rstest]
fn a_true_child_ends_in_success() {
    let mut child = adopt(&mut Command::new("true"));
    assert!(block_on(child.status()).unwrap().success());
}

#[rstest]
fn a_child_finishes_beside_the_never_ending_driver() {
    let done = block_on(
        async {
            let never = driver().await;
            match never {}
        }
        .or(async {
            let mut child = adopt(&mut Command::new("true"));
            child.status().await.unwrap()
        }),
    );
    assert!(done.success());
}

#[rstest]
fn spawning_a_missing_program_is_an_error() {
    let e = Command::new("no-such-program-here-at-all")
        .spawn()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
}

#[rstest]
fn an_exit_code_of_one_is_reported() {
    let mut child = adopt(&mut Command::new("false"));
    assert_eq!(block_on(child.status()).unwrap().code(), Some(1));
}

#[rstest]
fn a_killed_child_reports_sigkill() {
    let mut child = adopt(
        Command::new("sh")
            .args(["-c", "read a"])
            .stdin(Stdio::piped()),
    );
    // Keep stdin open so only the kill can end it (`status` closes stdin first).
    let stdin = child.stdin.take();
    child.kill().unwrap();
    assert_eq!(
        block_on(child.status()).unwrap().signal(),
        Some(libc::SIGKILL)
    );
    drop(stdin);
}

/// What a child writes to its piped stdout, read to the end, then its status.
fn read_out(c: &mut Command) -> String {
    let mut child = adopt(c.stdout(Stdio::piped()));
    block_on(async {
        let mut s = String::new();
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_to_string(&mut s)
            .await
            .unwrap();
        assert!(child.status().await.unwrap().success());
        s
    })
}

#[rstest]
fn piped_stdout_is_read_to_its_end() {
    assert_eq!(read_out(Command::new("echo").arg("foobar")), "foobar\n");
}

#[rstest]
fn the_child_runs_in_the_directory_set() {
    assert_eq!(
        read_out(Command::new("sh").args(["-c", "pwd"]).current_dir("/")),
        "/\n"
    );
}

#[rstest]
fn a_line_written_to_stdin_comes_back_on_stdout() {
    let mut child = adopt(
        Command::new("sh")
            .args(["-c", "read line; echo \"$line\""])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped()),
    );
    let out = block_on(async {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"foobar\n").await.unwrap();
        drop(stdin);
        let mut s = String::new();
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_to_string(&mut s)
            .await
            .unwrap();
        assert!(child.status().await.unwrap().success());
        s
    });
    assert_eq!(out, "foobar\n");
}

#[rstest]
fn command_status_reports_failure_and_success() {
    assert_eq!(
        block_on(status(&mut Command::new("false"))).unwrap().code(),
        Some(1)
    );
    assert!(block_on(status(&mut Command::new("true")))
        .unwrap()
        .success());
}

#[rstest]
fn output_of_a_missing_program_is_not_found() {
    let e = block_on(output(&mut Command::new("/no/such/program/here"))).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
}

#[rstest]
fn output_captures_stdout_and_an_empty_stderr() {
    let out = block_on(output(Command::new("echo").arg("hello"))).unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, b"hello\n");
    assert_eq!(out.stderr, b"");
}

#[rstest]
fn output_of_a_failing_program_captures_its_stderr() {
    // mkdir of a directory that exists fails with status 1 and says why on stderr.
    let out = block_on(output(Command::new("mkdir").arg("./"))).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"");
    assert!(!out.stderr.is_empty());
}

#[rstest]
fn child_status_gives_the_exit_code() {
    let mut child = adopt(&mut Command::new("false"));
    assert_eq!(block_on(child.status()).unwrap().code(), Some(1));
    assert!(child.try_status().unwrap().is_some());
}

#[rstest]
fn child_status_twice_gives_the_same_code() {
    let mut child = adopt(&mut Command::new("false"));
    assert_eq!(block_on(child.status()).unwrap().code(), Some(1));
    assert_eq!(block_on(child.status()).unwrap().code(), Some(1));
}

#[rstest]
fn child_output_reads_the_piped_stdout() {
    let child = adopt(Command::new("echo").arg("hello").stdout(Stdio::piped()));
    let out = block_on(child.output()).unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, b"hello\n");
    assert_eq!(out.stderr, b"");
}

/// `env`'s output for `c`.
fn env_of(c: &mut Command) -> String {
    String::from_utf8(block_on(output(c)).unwrap().stdout).unwrap()
}

#[rstest]
fn a_cleared_environment_holds_only_what_was_set() {
    let mut c = Command::new("env");
    c.env_clear().env("SPAWNMATRIX_PEER_NEW", "123");
    if let Some(p) = std::env::var_os("PATH") {
        c.env("PATH", p);
    }
    let env = env_of(&mut c);
    let mut names: Vec<&str> = env
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|p| p.0)
        .collect();
    names.sort_unstable();
    let mut want = vec!["SPAWNMATRIX_PEER_NEW"];
    if std::env::var_os("PATH").is_some() {
        want.push("PATH");
    }
    want.sort_unstable();
    assert_eq!(names, want, "{env}");
    assert!(
        env.lines().any(|l| l == "SPAWNMATRIX_PEER_NEW=123"),
        "{env}"
    );
}

#[rstest]
fn an_added_variable_reaches_the_child() {
    let env = env_of(Command::new("env").env("SPAWNMATRIX_PEER_ADDED", "123"));
    assert!(
        env.lines().any(|l| l == "SPAWNMATRIX_PEER_ADDED=123"),
        "{env}"
    );
}

#[rstest]
fn the_environment_is_taken_at_spawn_not_when_built() {
    let mut c = Command::new("env");
    c.env("SPAWNMATRIX_PEER_BUILT", "123");
    // Set after the command was built, before it spawns: the child must see it.
    std::env::set_var("SPAWNMATRIX_PEER_LATER", "456");
    let env = env_of(&mut c);
    std::env::remove_var("SPAWNMATRIX_PEER_LATER");
    assert!(
        env.lines().any(|l| l == "SPAWNMATRIX_PEER_BUILT=123"),
        "{env}"
    );
    assert!(
        env.lines().any(|l| l == "SPAWNMATRIX_PEER_LATER=456"),
        "{env}"
    );
}

#[rstest]
fn output_of_a_kill_on_drop_child_keeps_its_status() {
    let child = adopt(Command::new("true").kill_on_drop(true));
    assert!(block_on(child.output()).unwrap().status.success());
}

#[cfg(target_os = "linux")]
#[rstest]
fn the_exit_fd_is_the_process_id_names() {
    use std::os::fd::AsRawFd;
    let mut child = adopt(Command::new("sleep").arg("30").kill_on_drop(true));
    let id = child.id();
    let fd = match child.inner().exit_fd() {
        Ok(fd) => fd.as_raw_fd(),
        Err(e) => return println!("skipped: no pidfd here: {e}"),
    };
    super::support::assert_pidfd_names(fd, id);
}

#[rstest]
fn one_command_spawns_twice_with_piped_stdio() {
    let mut c = Command::new("sh");
    c.args(["-c", "echo foo; echo bar >&2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for _ in 0..2 {
        let out = block_on(adopt(&mut c).output()).unwrap();
        assert_eq!(out.stdout, b"foo\n");
        assert_eq!(out.stderr, b"bar\n");
    }
}

/// The upstream test pipes `cat Cargo.toml` into `grep`; here the next child also reads its
/// stdin's open-file flags, which must not hold `O_NONBLOCK`. The end taken out with
/// `Async::into_inner`, as a user would without `into_stdio`, shows the check can fail.
#[rstest]
fn into_stdio_feeds_the_next_child_a_blocking_pipe() {
    let flags = |blocking: bool| {
        let mut first = adopt(Command::new("echo").arg("handed on").stdout(Stdio::piped()));
        let end = first.stdout.take().unwrap();
        let stdio = match blocking {
            true => end.into_stdio().unwrap(),
            false => Stdio::from(end.into_inner().unwrap()),
        };
        let next = super::support::next_childs_stdin_flags(stdio);
        assert!(block_on(first.status()).unwrap().success());
        next
    };
    super::support::assert_into_stdio_is_blocking(flags);
}

#[rstest]
fn status_awaits_a_sleeping_child() {
    assert!(block_on(status(Command::new("sleep").arg("1")))
        .unwrap()
        .success());
}
