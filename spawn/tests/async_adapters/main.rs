//! The optional event-loop adapters (`tokio`, `async-io` features): a wait that does not
//! block the executor, output read from both pipes together, and piped stdin; each under
//! every strategy that runs here. Built and run by `ci/checks/25-downstream.sh`
//! (`--features tokio,async-io`); without the features this suite is empty. One file per
//! adapter; `peer_tokio.rs` and `peer_async_process.rs` restate the peers' own test suites,
//! one test per upstream test (each file's doc maps them); `support/` holds what they share.

#![cfg(any(feature = "tokio", feature = "async-io"))]

use std::io::ErrorKind;
use std::time::{Duration, Instant};

use rstest::rstest;
use spawnmatrix_spawn::{Command, Stdio, Strategy};

/// The command under `strategy`, or `None` where that strategy cannot run here.
fn spawned(c: &mut Command, strategy: Strategy) -> Option<spawnmatrix_spawn::Child> {
    match c.strategy(strategy).spawn() {
        Ok(child) => Some(child),
        Err(e) if e.kind() == ErrorKind::Unsupported && strategy != Strategy::Auto => None,
        Err(e) => panic!("{strategy}: {e}"),
    }
}

/// A shell that writes to both pipes, much more than a pipe buffer to stdout, so reading
/// one pipe after the other would deadlock.
fn chatty() -> Command {
    let mut c = Command::new("sh");
    c.args(["-c", "head -c 200000 /dev/zero; echo err >&2; exit 3"]);
    c
}

#[cfg(feature = "async-io")]
mod on_async_io;
#[cfg(feature = "tokio")]
mod on_tokio;
#[cfg(feature = "async-io")]
mod peer_async_process;
#[cfg(feature = "tokio")]
mod peer_tokio;
mod support;

/// Drops a child taken over by `adopt_and_drop` (given a child that sleeps 1 s, then writes
/// `done` to a file) and checks what tokio's and async-process's dropped children do: not
/// killed, and reaped once it exits (no zombie). `adopt_and_drop` returns the pid.
fn dropped_child_runs_on_and_is_reaped(
    adopt_and_drop: impl FnOnce(spawnmatrix_spawn::Child) -> u32,
) {
    let (_dir, marker) = support::marker("done");
    let c = Command::new("sh")
        .args(["-c", "sleep 1; echo done > \"$1\"", "sh"])
        .arg(&marker)
        .spawn()
        .unwrap();
    let pid = adopt_and_drop(c) as libc::pid_t;
    assert!(
        support::procs::reaped_soon(pid),
        "the dropped child was left a zombie"
    );
    assert_eq!(
        std::fs::read_to_string(&marker).unwrap(),
        "done\n",
        "the dropped child was killed"
    );
}
mod without_notifier;
