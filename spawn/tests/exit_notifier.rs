//! `Child::exit_notifier`: an owned fd, readable once the child has exited and not before,
//! that outlives the `Child` and never reaps; under every strategy that runs here.

use std::io::ErrorKind;
use std::os::fd::AsRawFd;
use std::time::Duration;

use rstest::rstest;
use spawnmatrix_spawn::{Command, Stdio, Strategy};

/// Where the library has a notifier: Linux's pidfd, and the kqueue of macOS and the BSDs
/// (`spawnmatrix_kqueue`, from the package's build script). There `Unsupported` fails.
const HAS_NOTIFIER: bool = cfg!(any(target_os = "linux", spawnmatrix_kqueue));

/// A child that runs until its stdin is closed.
fn blocked(strategy: Strategy) -> Option<spawnmatrix_spawn::Child> {
    let r = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .strategy(strategy)
        .spawn();
    match r {
        Ok(c) => Some(c),
        Err(e) if e.kind() == ErrorKind::Unsupported && strategy != Strategy::Auto => None,
        Err(e) => panic!("{strategy}: {e}"),
    }
}

#[rstest]
fn readable_at_exit_and_not_before(
    #[values(
        Strategy::Auto,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::PosixSpawn,
        Strategy::Fork
    )]
    strategy: Strategy,
) {
    let Some(mut child) = blocked(strategy) else {
        return;
    };
    let exit = match child.exit_notifier() {
        Ok(n) => n,
        Err(e) if e.kind() == ErrorKind::Unsupported && !HAS_NOTIFIER => {
            child.kill().unwrap();
            child.wait().unwrap();
            return;
        }
        Err(e) => panic!("{strategy}: {e}"),
    };
    assert!(
        !exit.has_exited().unwrap(),
        "{strategy}: readable before the exit"
    );
    assert!(!exit.wait_timeout(Duration::from_millis(50)).unwrap());
    // Not reaped by the notifier: the child is still there to wait for.
    assert!(child.try_wait().unwrap().is_none());
    drop(child.stdin.take());
    assert!(
        exit.wait_timeout(Duration::from_secs(30)).unwrap(),
        "{strategy}: no exit seen"
    );
    // Readable, and the exit is now reaped without blocking.
    assert!(child.try_wait().unwrap().is_some_and(|s| s.success()));
}

/// The notifier is its own fd: the `Child` can be moved and dropped while it waits.
#[rstest]
fn outlives_its_child() {
    let Some(mut child) = blocked(Strategy::Auto) else {
        unreachable!()
    };
    let exit = match child.exit_notifier() {
        Ok(n) => n,
        Err(e) if e.kind() == ErrorKind::Unsupported && !HAS_NOTIFIER => {
            child.kill().unwrap();
            child.wait().unwrap();
            return;
        }
        Err(e) => panic!("{e}"),
    };
    let fd = exit.as_raw_fd();
    let waiter = std::thread::spawn(move || {
        drop(child.stdin.take());
        child.wait().unwrap()
    });
    assert!(exit.wait_timeout(Duration::from_secs(30)).unwrap());
    assert!(waiter.join().unwrap().success());
    // SAFETY: F_GETFD on an fd number; only its flags are read.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    assert_eq!(
        flags & libc::FD_CLOEXEC,
        libc::FD_CLOEXEC,
        "an internal fd must be close-on-exec"
    );
}

/// After a wait the pid may be another process's: no notifier then.
#[rstest]
fn refused_after_a_wait() {
    let mut child = Command::new("true").spawn().unwrap();
    child.wait().unwrap();
    let e = child.exit_notifier().unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::InvalidInput | ErrorKind::Unsupported),
        "{e}"
    );
    if cfg!(target_os = "linux") {
        assert_eq!(e.kind(), ErrorKind::InvalidInput);
    }
}

#[path = "support/isolated.rs"]
mod isolated;

extern "C" fn interrupted(_: libc::c_int) {}

/// Both timed waits promise that a signal handler's interruption (`EINTR`, the handler
/// installed without `SA_RESTART`) resumes the wait for the time left: the exit is still
/// seen, neither returns the interruption nor gives up early. A thread sends the waiting
/// thread `SIGUSR1` every 10 ms while a 0.3 s child runs; in a sub-process of its own, since
/// the handler is process-wide.
#[test]
fn a_signal_handlers_interruption_resumes_the_timed_waits() {
    isolated::isolated(
        "a_signal_handlers_interruption_resumes_the_timed_waits",
        || {
            // SAFETY: a do-nothing handler for SIGUSR1, without SA_RESTART, in this sub-process.
            unsafe {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = interrupted as extern "C" fn(libc::c_int) as usize;
                assert_eq!(
                    libc::sigaction(libc::SIGUSR1, &act, std::ptr::null_mut()),
                    0
                );
            }
            // SAFETY: pthread_self cannot fail.
            let waiter = unsafe { libc::pthread_self() } as usize;
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let stop2 = std::sync::Arc::clone(&stop);
            let pest = std::thread::spawn(move || {
                let mut sent = 0;
                while !stop2.load(std::sync::atomic::Ordering::Relaxed) {
                    // SAFETY: the waiting thread outlives this one (joined below).
                    unsafe { libc::pthread_kill(waiter as libc::pthread_t, libc::SIGUSR1) };
                    sent += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                sent
            });
            let mut notified = Command::new("sleep").arg("0.3").spawn().unwrap();
            let exit = notified.exit_notifier().unwrap();
            assert!(
                exit.wait_timeout(Duration::from_secs(10))
                    .expect("ExitNotifier::wait_timeout"),
                "ExitNotifier::wait_timeout gave up before the exit"
            );
            assert!(notified.wait().unwrap().success());
            for exit_fd in [true, false] {
                let mut child = Command::new("sleep")
                    .arg("0.3")
                    .exit_fd(exit_fd)
                    .spawn()
                    .unwrap();
                let status = child
                    .wait_timeout(Duration::from_secs(10))
                    .unwrap_or_else(|e| panic!("Child::wait_timeout (exit_fd {exit_fd}): {e}"));
                assert!(
                    status.is_some_and(|s| s.success()),
                    "Child::wait_timeout (exit_fd {exit_fd}) gave up before the exit: {status:?}"
                );
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            let sent = pest.join().unwrap();
            assert!(sent > 20, "only {sent} signals were sent");
            println!("{sent} interruptions");
        },
    );
}

/// A child that has exited but is not reaped yet (a zombie): the notifier is readable at
/// once. The kqueue path differs per system here: FreeBSD reports the exit on the new filter,
/// macOS refuses a zombie with `ESRCH` and the library returns an fd readable at once.
/// Not on Cygwin: the libc crate has no `waitid` there (and the library no notifier).
#[cfg(not(target_os = "cygwin"))]
#[rstest]
fn readable_at_once_for_a_child_that_has_exited(
    #[values(
        Strategy::Auto,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::PosixSpawn,
        Strategy::Fork
    )]
    strategy: Strategy,
) {
    let r = Command::new("true").strategy(strategy).spawn();
    let mut child = match r {
        Err(e) if e.kind() == ErrorKind::Unsupported && strategy != Strategy::Auto => return,
        r => r.unwrap_or_else(|e| panic!("{strategy}: {e}")),
    };
    // Wait for the exit without reaping it (WNOWAIT leaves the zombie).
    // SAFETY: an all-zero siginfo_t is a valid out-parameter.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid on this process's own child, writing into `info`.
    let rc = unsafe {
        libc::waitid(
            libc::P_PID,
            child.id() as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        )
    };
    assert_eq!(
        rc,
        0,
        "{strategy}: waitid: {}",
        std::io::Error::last_os_error()
    );
    match child.exit_notifier() {
        Ok(exit) => assert!(
            exit.has_exited().unwrap(),
            "{strategy}: a zombie's notifier"
        ),
        Err(e) if e.kind() == ErrorKind::Unsupported && !HAS_NOTIFIER => {}
        Err(e) => panic!("{strategy}: {e}"),
    }
    assert!(child.try_wait().unwrap().is_some_and(|s| s.success()));
}
