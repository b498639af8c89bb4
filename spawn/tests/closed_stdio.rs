//! `close_fds` in a process whose stdin (or stdin and stderr) is closed, as in a daemon,
//! under every strategy: the spawn succeeds and the child sees the closed fds closed.
//!
//! On Apple this is the `POSIX_SPAWN_CLOEXEC_DEFAULT` path of the posix_spawn strategy
//! (`strategies/posix_spawn/closing.rs`): xnu fails a spawn whose `addinherit_np` names a
//! closed fd, so the library must name only the stdio the child has (f02f3a5). Elsewhere
//! `closefrom`/`close_range` and the fd walk keep what the parent has. Each body runs in a
//! re-executed copy of this binary (`support/isolated.rs`): it closes fds of its own process.

use std::io;

use spawnmatrix_spawn::{Command, Stdio, Strategy};

#[path = "support/isolated.rs"]
mod isolated;
#[path = "support/strategies.rs"]
mod strategies;
use strategies::STRATEGIES;

/// Whether `fd` is open in this process.
fn open(fd: libc::c_int) -> bool {
    // SAFETY: F_GETFD only reads the fd's flags.
    unsafe { libc::fcntl(fd, libc::F_GETFD) != -1 }
}

/// Closes `closed` here, then spawns a shell with `close_fds` and its stdio inherited under
/// every available strategy, and checks it ran and saw exactly those fds closed (it reports
/// into a file it opens itself, so no pipe of this process can take a closed number).
fn spawn_with_closed(closed: &[libc::c_int]) {
    for &fd in closed {
        // SAFETY: this re-executed copy gives up the fd for the rest of its life.
        assert_eq!(unsafe { libc::close(fd) }, 0, "close({fd})");
        assert!(!open(fd));
    }
    // Duplicating a closed fd fails (onto fd 3: `n<&n` is a no-op in dash), with `true`, not
    // the special built-in `:`, whose redirection error would end the shell. Nothing redirects
    // stderr, since that would open fd 2 (the error line on an open stderr is expected noise).
    let script = "{ if true 3<&0; then echo open; else echo closed; fi
        if true 3>&2; then echo open; else echo closed; fi; } > \"$1\"";
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("fds");
    let want: Vec<&str> = [0, 2]
        .iter()
        .map(|fd| {
            if closed.contains(fd) {
                "closed"
            } else {
                "open"
            }
        })
        .collect();
    let mut ran = Vec::new();
    for strategy in STRATEGIES.into_iter().filter(|s| s.is_available()) {
        let _ = std::fs::remove_file(&report);
        let r = Command::new("sh")
            .args(["-c", script, "sh"])
            .arg(&report)
            .stdin(Stdio::inherit())
            .close_fds(true)
            .strategy(strategy)
            .status();
        let status = match r {
            Err(e) if e.kind() == io::ErrorKind::Unsupported && strategy != Strategy::Auto => {
                println!("skipped: {strategy} cannot here: {e}");
                continue;
            }
            r => r.unwrap_or_else(|e| panic!("{strategy}: close_fds with {closed:?} closed: {e}")),
        };
        assert!(status.success(), "{strategy}: {status:?}");
        let got = std::fs::read_to_string(&report).unwrap();
        assert_eq!(got.lines().collect::<Vec<_>>(), want, "{strategy}");
        ran.push(strategy);
    }
    println!("ran under {ran:?}");
    assert!(ran.contains(&Strategy::Auto));
    // The strategy the Apple path belongs to: it must not be skipped there.
    if cfg!(target_vendor = "apple") {
        assert!(ran.contains(&Strategy::PosixSpawn), "{ran:?}");
    }
}

#[test]
fn close_fds_with_stdin_closed() {
    isolated::isolated("close_fds_with_stdin_closed", || spawn_with_closed(&[0]));
}

#[test]
fn close_fds_with_stdin_and_stderr_closed() {
    isolated::isolated("close_fds_with_stdin_and_stderr_closed", || {
        spawn_with_closed(&[0, 2])
    });
}
