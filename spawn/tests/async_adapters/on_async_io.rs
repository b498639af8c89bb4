//! The `async-io` adapter.

use super::*;
use futures_lite::future::block_on;
use futures_lite::AsyncWriteExt;
use spawnmatrix_spawn::async_io::{output, Child};

#[rstest]
fn output_reads_both_pipes(
    #[values(
        Strategy::Auto,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::PosixSpawn,
        Strategy::Fork
    )]
    strategy: Strategy,
) {
    let mut c = chatty();
    c.strategy(strategy);
    let out = match block_on(output(&mut c)) {
        Err(e) if e.kind() == ErrorKind::Unsupported && strategy != Strategy::Auto => return,
        r => r.unwrap(),
    };
    assert_eq!(out.stdout.len(), 200_000, "{strategy}");
    assert_eq!(out.stderr, b"err\n");
    assert_eq!(out.status.code(), Some(3));
}

/// The wait yields: a timer polled alongside it on the same thread finishes first.
#[rstest]
fn wait_does_not_block_the_executor(
    #[values(Strategy::Auto, Strategy::PosixSpawn, Strategy::Fork)] strategy: Strategy,
) {
    let Some(child) = spawned(Command::new("sleep").arg("2"), strategy) else {
        return;
    };
    let mut child = Child::new(child).unwrap();
    let started = Instant::now();
    let (ticked_at, status) = block_on(futures_lite::future::zip(
        async {
            async_io::Timer::after(Duration::from_millis(50)).await;
            started.elapsed()
        },
        child.wait(),
    ));
    assert!(status.unwrap().success());
    assert!(
        ticked_at < Duration::from_millis(1500),
        "the executor was blocked: {ticked_at:?}"
    );
    assert!(child.inner().try_wait().unwrap().is_some());
}

#[rstest]
fn piped_stdin_reaches_the_child() {
    let c = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Child::new(c).unwrap();
    let out = block_on(async {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"through async-io").await.unwrap();
        drop(stdin);
        child.wait_with_output().await.unwrap()
    });
    assert_eq!(out.stdout, b"through async-io");
}

/// Registering the exit notifier with the reactor leaves the child's own pidfd blocking, so
/// `PidFd::wait` blocks until the exit instead of failing with `EAGAIN` (Linux: the notifier
/// shares the pidfd's open file).
#[cfg(target_os = "linux")]
#[rstest]
fn the_pidfd_stays_blocking() {
    use spawnmatrix_spawn::os::linux::process::{ChildExt, CommandExt};
    let c = Command::new("sleep")
        .arg("0.2")
        .create_pidfd(true)
        .spawn()
        .unwrap();
    let mut child = Child::new(c).unwrap();
    let pidfd = match child.inner().pidfd() {
        Ok(p) => p,
        Err(e) => {
            println!("skipped: no pidfd with this strategy here: {e}");
            return;
        }
    };
    // SAFETY: F_GETFL on an fd the pidfd owns.
    let flags = unsafe { libc::fcntl(std::os::fd::AsRawFd::as_raw_fd(pidfd), libc::F_GETFL) };
    assert_eq!(
        flags & libc::O_NONBLOCK,
        0,
        "the pidfd was made non-blocking"
    );
    let status = pidfd.wait().expect("PidFd::wait");
    assert!(status.success());
}

/// A dropped child runs on and is reaped once it exits, as async-process's is.
#[rstest]
fn a_dropped_child_runs_on_and_is_reaped() {
    dropped_child_runs_on_and_is_reaped(|c| Child::new(c).unwrap().id());
}
