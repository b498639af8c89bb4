//! Where the platform gives no exit notifier (no pidfd, no kqueue), `output()` and `status()`
//! still run the program once and reap it: no zombie, and never an error after it ran.

#[cfg(feature = "tokio")]
use super::support::io_runtime;
use super::support::{children, isolated, marker, Children};
use spawnmatrix_spawn::Command;

/// Runs `body` where this process has no exit notifier: in a re-executed copy with
/// `pidfd_open` refused on Linux, natively (re-executed too, for the children check) where
/// the platform has none; skipped with a reason on a kqueue platform, whose notifier cannot
/// be taken away.
fn without_notifier(test: &str, body: impl FnOnce()) {
    #[cfg(target_os = "linux")]
    isolated(test, || {
        super::support::refuse_pidfd::install();
        body()
    });
    #[cfg(not(target_os = "linux"))]
    {
        let mut probe = Command::new("true").spawn().unwrap();
        let has = probe.exit_notifier().is_ok();
        probe.wait().unwrap();
        if has {
            println!("skipped: this platform's exit notifier (kqueue) cannot be taken away");
            return;
        }
        isolated(test, body)
    }
}

/// A program that counts its runs in `marker` and prints `out`.
fn counted(marker: &std::path::Path) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg("echo run >> \"$1\"; echo out")
        .arg("sh")
        .arg(marker);
    c
}

/// What a run of `output` must leave: the program's output, one run, no child.
fn check(result: std::io::Result<spawnmatrix_spawn::Output>, marker: &std::path::Path) {
    let runs = std::fs::read_to_string(marker).unwrap_or_default();
    match result {
        Ok(out) => {
            assert_eq!(out.stdout, b"out\n");
            assert!(out.status.success());
            assert_eq!(runs, "run\n", "the program ran other than once");
        }
        Err(e) => assert_eq!(runs, "", "the program ran, then output failed: {e}"),
    }
    assert_eq!(children(), Children::None, "a child is left");
}

#[cfg(feature = "tokio")]
#[test]
fn tokio_output_without_a_notifier_runs_once_and_reaps() {
    without_notifier(
        "without_notifier::tokio_output_without_a_notifier_runs_once_and_reaps",
        || {
            let (_dir, marker) = marker("runs");
            let rt = io_runtime();
            let r = rt.block_on(spawnmatrix_spawn::tokio::output(&mut counted(&marker)));
            check(r, &marker);
        },
    );
}

#[cfg(feature = "async-io")]
#[test]
fn async_io_output_without_a_notifier_runs_once_and_reaps() {
    without_notifier(
        "without_notifier::async_io_output_without_a_notifier_runs_once_and_reaps",
        || {
            let (_dir, marker) = marker("runs");
            let r = futures_lite::future::block_on(spawnmatrix_spawn::async_io::output(
                &mut counted(&marker),
            ));
            check(r, &marker);
        },
    );
}

#[cfg(feature = "tokio")]
#[test]
fn tokio_status_without_a_notifier_runs_once_and_reaps() {
    without_notifier(
        "without_notifier::tokio_status_without_a_notifier_runs_once_and_reaps",
        || {
            let (_dir, marker) = marker("runs");
            let rt = io_runtime();
            let mut c = counted(&marker);
            c.stdout(spawnmatrix_spawn::Stdio::null());
            let r = rt.block_on(spawnmatrix_spawn::tokio::status(&mut c));
            check_status(r, &marker);
        },
    );
}

#[cfg(feature = "async-io")]
#[test]
fn async_io_status_without_a_notifier_runs_once_and_reaps() {
    without_notifier(
        "without_notifier::async_io_status_without_a_notifier_runs_once_and_reaps",
        || {
            let (_dir, marker) = marker("runs");
            let mut c = counted(&marker);
            c.stdout(spawnmatrix_spawn::Stdio::null());
            let r = futures_lite::future::block_on(spawnmatrix_spawn::async_io::status(&mut c));
            check_status(r, &marker);
        },
    );
}

/// What a run of `status` must leave: success, one run, no child.
fn check_status(result: std::io::Result<spawnmatrix_spawn::ExitStatus>, marker: &std::path::Path) {
    let runs = std::fs::read_to_string(marker).unwrap_or_default();
    match result {
        Ok(s) => {
            assert!(s.success());
            assert_eq!(runs, "run\n", "the program ran other than once");
        }
        Err(e) => assert_eq!(runs, "", "the program ran, then status failed: {e}"),
    }
    assert_eq!(children(), Children::None, "a child is left");
}
