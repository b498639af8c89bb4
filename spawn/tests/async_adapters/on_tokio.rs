//! The `tokio` adapter.

use super::*;
use spawnmatrix_spawn::tokio::{output, Child};
use tokio::io::AsyncWriteExt;

fn run<F: std::future::Future>(f: F) -> F::Output {
    super::support::io_runtime().block_on(f)
}

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
    let out = run(async {
        let mut c = chatty();
        c.strategy(strategy);
        match output(&mut c).await {
            Err(e) if e.kind() == ErrorKind::Unsupported && strategy != Strategy::Auto => None,
            r => Some(r.unwrap()),
        }
    });
    let Some(out) = out else { return };
    assert_eq!(out.stdout.len(), 200_000, "{strategy}");
    assert_eq!(out.stderr, b"err\n");
    assert_eq!(out.status.code(), Some(3));
}

/// The wait yields to the runtime: another task on the same (single) thread runs a child
/// to its end while the first child sleeps, and the first is reaped at the end.
#[rstest]
fn wait_does_not_block_the_runtime(
    #[values(Strategy::Auto, Strategy::PosixSpawn, Strategy::Fork)] strategy: Strategy,
) {
    let Some(child) = spawned(Command::new("sleep").arg("2"), strategy) else {
        return;
    };
    let (status, ticked_at, reaped) = run(async {
        let mut child = Child::new(child).unwrap();
        let started = Instant::now();
        let other = tokio::spawn(async move {
            output(&mut Command::new("true")).await.unwrap();
            started.elapsed()
        });
        let status = child.wait().await.unwrap();
        let reaped = child.inner().try_wait().unwrap().is_some();
        (status, other.await.unwrap(), reaped)
    });
    assert!(status.success());
    assert!(
        ticked_at < Duration::from_millis(1500),
        "the runtime was blocked: {ticked_at:?}"
    );
    assert!(reaped);
}

/// Outside a runtime: an error, not tokio's panic, and the child does not outlive it (killed,
/// then reaped without blocking the caller).
#[rstest]
fn outside_a_runtime_is_an_error() {
    let c = Command::new("sleep").arg("30").spawn().unwrap();
    let pid = c.id() as libc::pid_t;
    let e = Child::new(c).unwrap_err();
    assert!(e.to_string().contains("runtime"), "{e}");
    // Killed (a 30 s sleep cannot end sooner), and reaped by the reaper thread.
    assert!(
        super::support::procs::reaped_soon(pid),
        "the child was left running or a zombie"
    );
}

#[rstest]
fn piped_stdin_reaches_the_child() {
    let out = run(async {
        let c = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut child = Child::new(c).unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"through tokio").await.unwrap();
        drop(stdin);
        child.wait_with_output().await.unwrap()
    });
    assert_eq!(out.stdout, b"through tokio");
    assert!(out.status.success());
}

/// A child spawned in one runtime, which then shuts down, is waited for in another before it
/// has exited: the wait registers with the runtime it runs in, as tokio's own does.
#[rstest]
fn waits_in_a_second_runtime_after_the_first_shut_down() {
    let mut child = run(async {
        let c = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        Child::new(c).unwrap()
    });
    // The first runtime is gone; cat still runs (its stdin is open).
    assert!(child.inner().try_wait().unwrap().is_none());
    let status = run(async { child.wait().await }).expect("wait in the second runtime");
    assert!(status.success());
}

/// A dropped child runs on and is reaped once it exits, as tokio's is.
#[rstest]
fn a_dropped_child_runs_on_and_is_reaped() {
    dropped_child_runs_on_and_is_reaped(|c| run(async { Child::new(c).unwrap().id().unwrap() }));
}

/// A runtime built without I/O.
fn without_io() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

/// The error a runtime without I/O gives: it names the cure.
fn says_no_io(e: &std::io::Error) {
    assert!(e.to_string().contains("enable_io"), "{e}");
}

/// In a runtime built without I/O, taking a child over is an error where tokio's own I/O
/// types panic, and the child does not outlive it (a 30 s sleep, killed and reaped).
#[rstest]
fn a_runtime_without_io_is_an_error_and_the_child_is_ended() {
    let c = Command::new("sleep").arg("30").spawn().unwrap();
    let pid = c.id() as libc::pid_t;
    let e = without_io()
        .block_on(async { Child::new(c).map(drop) })
        .unwrap_err();
    says_no_io(&e);
    assert!(
        super::support::procs::reaped_soon(pid),
        "the child was left running or a zombie"
    );
}

/// `output` in a runtime without I/O refuses before it runs anything: the program, which
/// would leave a file, never ran.
#[rstest]
fn output_in_a_runtime_without_io_is_an_error_before_spawning() {
    let (_dir, marker) = super::support::marker("ran");
    let mut c = Command::new("sh");
    c.args(["-c", "echo ran > \"$1\"", "sh"]).arg(&marker);
    let e = without_io().block_on(output(&mut c)).unwrap_err();
    says_no_io(&e);
    std::thread::sleep(Duration::from_millis(200));
    assert!(!marker.exists(), "the program ran, then output failed");
}

/// A child taken over in a runtime with I/O, then waited for in one without: an error, and
/// the child is left as it was (still running, waited for later in a runtime with I/O).
#[rstest]
fn a_wait_in_a_runtime_without_io_is_an_error() {
    let mut child = run(async {
        let c = Command::new("sleep").arg("30").spawn().unwrap();
        Child::new(c).unwrap()
    });
    let e = without_io().block_on(child.wait()).unwrap_err();
    says_no_io(&e);
    assert!(
        child.inner().try_wait().unwrap().is_none(),
        "the child was ended"
    );
    child.inner().kill().unwrap();
    let status = run(child.wait()).unwrap();
    assert_eq!(
        spawnmatrix_spawn::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
}

/// A piped stdout handed on with `into_stdio` reaches the next child as a blocking pipe
/// (tokio's `into_blocking_fd`); the end taken out with `into_nonblocking_fd`, as a user
/// would without `into_stdio`, shows the check can fail.
#[rstest]
fn into_stdio_hands_on_a_blocking_pipe() {
    use spawnmatrix_spawn::tokio::IntoStdio;
    let flags = |blocking: bool| {
        run(async move {
            let c = Command::new("echo")
                .arg("handed on")
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            let mut first = Child::new(c).unwrap();
            let end = first.stdout.take().unwrap();
            let stdio = match blocking {
                true => end.into_stdio().unwrap(),
                false => Stdio::from(end.into_nonblocking_fd().unwrap()),
            };
            let next = super::support::next_childs_stdin_flags(stdio);
            assert!(first.wait().await.unwrap().success());
            next
        })
    };
    super::support::assert_into_stdio_is_blocking(flags);
}

/// `status` awaits the exit and gives its code, with the stdio inherited.
#[rstest]
fn status_gives_the_exit_code() {
    let s = run(spawnmatrix_spawn::tokio::status(
        Command::new("sh").args(["-c", "exit 4"]),
    ));
    assert_eq!(s.unwrap().code(), Some(4));
}
