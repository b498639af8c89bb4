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
/// come before it; when none exists, none is created and the `execvp` rule's errno comes back.
#[rstest]
#[case::found_third("/nonexistent-spawnmatrix-a:/nonexistent-spawnmatrix-b:/bin:/usr/bin", 1, None)]
#[case::none_exists("/nonexistent-spawnmatrix-a:/nonexistent-spawnmatrix-b", 0, Some(libc::ENOENT))]
#[case::not_a_directory("/nonexistent-spawnmatrix-a:/dev/null", 0, Some(libc::ENOTDIR))]
fn path_misses_create_no_process(
    #[case] path: &str,
    #[case] want_calls: usize,
    #[case] want_errno: Option<libc::c_int>,
) {
    if !Strategy::PosixSpawn.is_available() {
        eprintln!("skipped: posix_spawn is not a strategy here");
        return;
    }
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
