//! `Command::kill_on_parent_death` (issue 31): the child is killed when this process dies
//! (by `SIGKILL` too) or its `Child` is dropped, under every strategy that can express it,
//! and the mechanism is the one the docs name: `CLONE_PIDFD_AUTOKILL` (with `no_new_privs`,
//! clone3, Linux 7.1), `PR_SET_PDEATHSIG(SIGKILL)` otherwise. The two differ where the
//! fallback is weaker: a child spawned from a thread that ends is killed by the fallback and
//! kept by the kernel's flag, which counts the process, not the thread.

#![cfg(target_os = "linux")]

use std::io::{self, BufRead, BufReader};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::Duration;

use rstest::rstest;
use std::os::unix::process::ExitStatusExt as _;

use spawnmatrix_spawn::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use spawnmatrix_spawn::{Child, Command, Strategy};

include!("support/paths.rs");

/// The environment variable that makes a re-executed copy of this binary the parent.
const PARENT: &str = "SPAWNMATRIX_KILL_ON_PARENT_DEATH_PARENT";

fn strategy_named(name: &str) -> Strategy {
    name.parse().expect("a strategy name")
}

/// A `sleep 60` with the option (and `no_new_privs` when `nnp`), or `None` (printed) where
/// this kernel refuses a forced clone3.
fn sleeper(strategy: Strategy, nnp: bool) -> Option<Child> {
    let mut c = Command::new("sleep");
    c.arg("60")
        .kill_on_parent_death(true)
        .no_new_privs(nnp)
        .strategy(strategy);
    match c.spawn() {
        Err(e) if e.kind() == io::ErrorKind::Unsupported && strategy == Strategy::Clone3 => {
            println!("skipped: clone3 refused here: {e}");
            None
        }
        r => Some(r.unwrap_or_else(|e| panic!("{strategy}: {e}"))),
    }
}

/// A pidfd for `pid` that does not keep it alive (`pidfd_open`), to watch it end.
fn watch(pid: u32) -> OwnedFd {
    // SAFETY: pidfd_open returns a new fd or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    assert!(fd >= 0, "pidfd_open({pid}): {}", io::Error::last_os_error());
    // SAFETY: a new fd nobody else owns.
    unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) }
}

/// Whether the process behind `fd` ends within `ms` milliseconds.
fn ends_within(fd: &OwnedFd, ms: libc::c_int) -> bool {
    let mut p = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    unsafe { libc::poll(&mut p, 1, ms) == 1 }
}

/// Whether the kernel has `CLONE_PIDFD_AUTOKILL` (and clone3 is allowed), per the caps
/// probe, or `None` where it cannot tell.
fn kernel_autokill() -> Option<bool> {
    let caps = spawnmatrix_spawn::caps::detect();
    let clone3 = caps["clone3"].available && caps["crate.clone3"].available;
    let autokill = &caps["CLONE_PIDFD_AUTOKILL"];
    println!("kernel: clone3 {clone3}, CLONE_PIDFD_AUTOKILL {autokill:?}");
    match autokill.how.as_str() {
        spawnmatrix_spawn::caps::REFUSED | spawnmatrix_spawn::caps::UNPROBED if clone3 => None,
        _ => Some(clone3 && autokill.available),
    }
}

#[rstest]
#[case(Strategy::Auto, false)]
#[case(Strategy::Auto, true)]
#[case(Strategy::Fork, true)]
#[case(Strategy::Clone3, false)]
#[case(Strategy::Clone3, true)]
#[case(Strategy::CloneVfork, true)]
fn kill_on_parent_death_leaves_wait_and_status_as_they_were(
    #[case] strategy: Strategy,
    #[case] nnp: bool,
) {
    let mut c = Command::new("sh");
    c.args(["-c", "exit 3"])
        .kill_on_parent_death(true)
        .no_new_privs(nnp)
        .strategy(strategy);
    let mut child = match c.spawn() {
        Err(e) if e.kind() == io::ErrorKind::Unsupported && strategy == Strategy::Clone3 => {
            return println!("skipped: clone3 refused here: {e}");
        }
        r => r.unwrap_or_else(|e| panic!("{strategy}: {e}")),
    };
    let pid = child.id() as libc::pid_t;
    assert_eq!(child.wait().expect("wait").code(), Some(3), "{strategy}");
    // No zombie, whoever reaped it (this wait, or the kernel: CLONE_AUTOREAP).
    // SAFETY: waitpid with a null status pointer and WNOHANG.
    let rc = unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG | libc::__WALL) };
    assert_eq!(rc, -1, "{strategy}: a child was left for waitpid");
    let Some(mut sleeping) = sleeper(strategy, nnp) else {
        return;
    };
    assert!(
        sleeping.try_wait().expect("try_wait").is_none(),
        "{strategy}"
    );
    let timed = sleeping
        .wait_timeout(Duration::from_millis(50))
        .expect("wait_timeout");
    assert!(timed.is_none(), "{strategy}: {timed:?}");
    sleeping.kill().expect("kill");
    let status = sleeping
        .wait_timeout(Duration::from_secs(10))
        .expect("wait_timeout");
    assert_eq!(
        status.and_then(|s| s.signal()),
        Some(libc::SIGKILL),
        "{strategy}"
    );
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
fn kill_on_parent_death_kills_the_child_when_its_child_is_dropped(#[case] strategy: Strategy) {
    let Some(child) = sleeper(strategy, true) else {
        return;
    };
    let pid = child.id();
    let fd = watch(pid);
    drop(child);
    assert!(
        ends_within(&fd, 10_000),
        "{strategy}: the child outlived its Child"
    );
}

/// The parent, in a re-executed copy: spawns `sleep 60` with the option, prints its pid,
/// and waits to be killed.
fn be_the_parent(spec: &str) {
    let (strategy, nnp) = spec.split_once(':').expect("strategy:nnp");
    let child = sleeper(strategy_named(strategy), nnp == "true");
    match &child {
        Some(c) => println!("CHILD {}", c.id()),
        None => println!("CHILD none"),
    }
    std::thread::sleep(Duration::from_secs(60));
    drop(child);
}

#[rstest]
#[case(Strategy::Auto, true)]
#[case(Strategy::Fork, true)]
#[case(Strategy::Clone3, true)]
#[case(Strategy::Clone3, false)]
#[case(Strategy::CloneVfork, true)]
fn kill_on_parent_death_kills_the_child_when_the_parent_is_sigkilled(
    #[case] strategy: Strategy,
    #[case] nnp: bool,
) {
    if let Ok(spec) = std::env::var(PARENT) {
        return be_the_parent(&spec);
    }
    let name = std::thread::current()
        .name()
        .expect("a test name")
        .to_string();
    let mut parent = std::process::Command::new(own_exe())
        .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(PARENT, format!("{strategy}:{nnp}"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the parent");
    let mut lines = BufReader::new(parent.stdout.take().expect("stdout")).lines();
    let pid = loop {
        let line = lines
            .next()
            .expect("the parent's CHILD line")
            .expect("read");
        // libtest's "test NAME ... " comes first on the same line.
        if let Some(at) = line.find("CHILD ") {
            break line[at + "CHILD ".len()..].trim().to_string();
        }
    };
    if pid == "none" {
        let _ = parent.kill();
        let _ = parent.wait();
        return println!("skipped: clone3 refused here");
    }
    let fd = watch(pid.parse().expect("a pid"));
    assert!(!ends_within(&fd, 0), "{strategy}: the child ended early");
    parent.kill().expect("SIGKILL the parent");
    let status = parent.wait().expect("wait for the parent");
    assert_eq!(
        status.signal(),
        Some(libc::SIGKILL),
        "{strategy}: {status:?}"
    );
    assert!(
        ends_within(&fd, 10_000),
        "{strategy}: the child outlived its SIGKILLed parent"
    );
}

/// Spawned from a thread that then ends: the kernel's flag keeps the child (the process is
/// its parent); the fallback's `PR_SET_PDEATHSIG` kills it (the thread was).
#[rstest]
#[case(Strategy::Clone3)]
#[case(Strategy::Fork)]
fn kill_on_parent_death_counts_the_process_with_autokill_and_the_thread_without(
    #[case] strategy: Strategy,
) {
    let Some(autokill) = kernel_autokill() else {
        return println!("skipped: the caps probe cannot tell whether CLONE_PIDFD_AUTOKILL works");
    };
    let child = std::thread::spawn(move || sleeper(strategy, true))
        .join()
        .expect("the spawning thread");
    let Some(mut child) = child else { return };
    let by_kernel = autokill && strategy == Strategy::Clone3;
    if by_kernel {
        println!("{strategy}: CLONE_PIDFD_AUTOKILL: the child outlives the thread");
        std::thread::sleep(Duration::from_millis(500));
        let now = child.try_wait().expect("try_wait");
        assert!(
            now.is_none(),
            "{strategy}: killed with its spawning thread: {now:?}"
        );
        let fd = watch(child.id());
        drop(child);
        assert!(
            ends_within(&fd, 10_000),
            "{strategy}: the child outlived its Child"
        );
    } else {
        println!("{strategy}: PR_SET_PDEATHSIG: the child ends with its spawning thread");
        let status = child
            .wait_timeout(Duration::from_secs(10))
            .expect("wait_timeout");
        assert_eq!(
            status.and_then(|s| s.signal()),
            Some(libc::SIGKILL),
            "{strategy}: {status:?}"
        );
    }
}

#[test]
fn kill_on_parent_death_under_forced_posix_spawn_is_unsupported() {
    let err = Command::new("true")
        .kill_on_parent_death(true)
        .strategy(Strategy::PosixSpawn)
        .status()
        .expect_err("posix_spawn has no attribute for it");
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
}

#[test]
fn kill_on_parent_death_is_refused_by_exec() {
    let err = Command::new("/nonexistent/program")
        .kill_on_parent_death(true)
        .exec();
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
}
