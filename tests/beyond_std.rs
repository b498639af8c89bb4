//! What this crate adds to `std::process`, each under every strategy (a strategy this
//! platform lacks, or one that cannot express the request, must refuse with `Unsupported`):
//! closing the fds the parent did not hand over, the child's pidfd, and a pollable exit.

mod support;

use std::os::fd::AsRawFd;

use rstest::rstest;
use rstest_reuse::{apply, template};
use spawnmatrix::spawn::Strategy;
use support::*;

/// Every strategy, the unavailable ones included (they must refuse).
#[template]
#[rstest]
fn every_strategy(
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

/// The child gets stdio and its mapped fds only, even an fd the parent left inheritable; and
/// without `close_fds` that fd does reach it (so the test can fail).
#[apply(every_strategy)]
fn close_fds_leaves_only_stdio_and_mapped_fds(
    strategy: Strategy,
    #[values(false, true)] close: bool,
) {
    let _g = serial();
    cloexec_all_inherited();
    let file = tempfile::tempfile().unwrap();
    let leaked = dup_inheritable(&file);
    let mapped = dup_inheritable(&file);
    let (mut c, report) = helper(strategy);
    c.fd(7, mapped).close_fds(close);
    let r = c.spawn();
    let refused = matches!(&r, Err(e) if e.kind() == std::io::ErrorKind::Unsupported);
    drop(r.map(|mut child| child.wait()));
    if refused {
        // Only where the strategy is missing, or posix_spawn has no addclosefrom_np.
        let posix_cannot = strategy == Strategy::PosixSpawn
            && close
            && spawnmatrix::sys::spawn_ext::addclosefrom().is_none();
        assert!(
            !strategy.is_available() || posix_cannot,
            "{strategy} refused"
        );
        return;
    }
    let state = spawnmatrix::child::ChildState::read(report.path()).unwrap();
    let fds = fd_numbers(&state);
    if close {
        assert_eq!(fds, vec![0, 1, 2, 7], "{strategy}");
    } else {
        assert!(fds.contains(&leaked.as_raw_fd()), "{strategy}: {fds:?}");
    }
    assert_no_children();
}

/// Closing the other fds must not close what reports the child's errno: a failed exec is
/// still an error, under every strategy.
#[apply(every_strategy)]
fn close_fds_keeps_exec_errors(strategy: Strategy) {
    let _g = serial();
    let mut c = command("/nonexistent/program", strategy);
    c.close_fds(true);
    match c.spawn() {
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {
            assert!(
                strategy != Strategy::Auto && strategy != Strategy::Fork,
                "{e}"
            )
        }
        Err(e) => assert_eq!(e.raw_os_error(), Some(libc::ENOENT), "{strategy}"),
        Ok(_) => panic!("{strategy}: a missing program must be an error"),
    }
    assert_no_children();
}
