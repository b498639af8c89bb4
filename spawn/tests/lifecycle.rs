//! A child's end of life: killing its process group (before and after the leader's exit),
//! `kill_on_drop` (never blocking the dropping thread) and handing out its pidfd.
//!
//! Where this runs as root on Linux, a decoy process is made to take a freed pid, so a signal
//! or group kill that went by a stale id would hit it (`support/decoy.rs`).

use std::io::{ErrorKind, Read};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use spawnmatrix_spawn::os::unix::process::{CommandExt, ExitStatusExt};
use spawnmatrix_spawn::{Command, Stdio};

#[cfg(target_os = "linux")]
#[path = "support/decoy.rs"]
mod decoy;
#[path = "support/procs.rs"]
mod procs;
use procs::{goes, reaped_soon};

/// Tests that make decoys or count this process's children run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// A decoy leading its own group on `pid`, where this host lets a test choose the pid.
fn group_decoy_at(pid: libc::pid_t) -> Option<std::process::Child> {
    #[cfg(target_os = "linux")]
    return decoy::decoy_at(pid, true);
    #[cfg(not(target_os = "linux"))]
    {
        println!("no decoy on this platform (pid {pid}): the checks run without pid reuse");
        None
    }
}

fn untouched(decoy: Option<std::process::Child>) -> bool {
    #[cfg(target_os = "linux")]
    return decoy::untouched(decoy);
    #[cfg(not(target_os = "linux"))]
    decoy.is_none()
}

/// Reads the first line of a child's stdout: a pid the child printed.
fn pid_line(out: &mut impl Read) -> libc::pid_t {
    let mut line = Vec::new();
    let mut byte = [0u8];
    while out.read(&mut byte).expect("read") == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    String::from_utf8_lossy(&line)
        .trim()
        .parse()
        .expect("a pid")
}

// ---- kill_process_group ----

/// A `true` that leads its own group (with a pidfd taken at spawn when `exit_fd`), and its
/// pid.
fn group_leader(exit_fd: bool) -> (spawnmatrix_spawn::Child, libc::pid_t) {
    let child = Command::new("true")
        .process_group(0)
        .exit_fd(exit_fd)
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    (child, pid)
}

/// Reaps our own child `pid` behind its `Child`'s back.
fn reap_elsewhere(pid: libc::pid_t) {
    // SAFETY: waits for a child of this process; the status is not wanted.
    assert_eq!(unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) }, pid);
}

/// A refused group kill: `InvalidInput`, and `why` when it was not refused.
fn assert_refused(r: std::io::Result<()>, why: &str) {
    let e = r.expect_err(why);
    assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
}

/// Once the leader is reaped its pid is free, and the group dies with its last member: a
/// group kill then would reach whatever group takes that id next. It is refused, and a decoy
/// leading a group on the reused id lives on.
#[test]
fn kill_process_group_after_the_wait_is_refused_and_spares_a_reused_group_id() {
    let _g = serial();
    let (mut child, pid) = group_leader(false);
    assert!(child.wait().expect("wait").success());
    let decoy = group_decoy_at(pid);
    let r = child.kill_process_group();
    let spared = untouched(decoy);
    assert!(spared, "the group on the reused id was killed ({r:?})");
    assert_refused(r, "a group kill after the wait must be refused");
}

/// The leader is reaped by someone else (a `waitpid` by pid behind the `Child`'s back, as
/// `SIGCHLD` ignored or another library's `waitpid(-1)` would): the `Child` does not know,
/// yet its group kill is refused, since the pid is no unreaped child any more. With the
/// pidfd taken at spawn (Linux) that holds even when the decoy on the reused pid is itself
/// a child of this process; by pid it cannot be told apart from one, so elsewhere the decoy
/// here is made only where the check can see it (none is made off Linux).
#[test]
fn kill_process_group_of_a_leader_reaped_elsewhere_is_refused() {
    let _g = serial();
    let (mut child, pid) = group_leader(cfg!(target_os = "linux"));
    reap_elsewhere(pid);
    let decoy = group_decoy_at(pid);
    let r = child.kill_process_group();
    let spared = untouched(decoy);
    assert!(spared, "the group on the reused id was killed ({r:?})");
    assert_refused(r, "the pid is no longer our child's");
}

/// The same without a pidfd (none asked for): whether the pid is still an unreaped child is
/// asked by pid (`waitid(WNOWAIT)`), and a leader reaped behind the `Child`'s back is no
/// child any more, so the group kill is refused. No decoy here: one made by this process
/// would be its child on the reused pid, which that check cannot tell apart (the documented
/// limit).
#[test]
fn kill_process_group_of_a_leader_reaped_elsewhere_is_refused_without_a_pidfd() {
    let _g = serial();
    let (mut child, pid) = group_leader(false);
    reap_elsewhere(pid);
    assert_refused(
        child.kill_process_group(),
        "the pid is no longer our child's",
    );
}

/// The clean-up path: the leader exits and leaves a straggler in its group.
/// `wait_then_kill_process_group` sees the exit without reaping (the zombie keeps the group
/// id taken), kills the group, then reaps: the straggler is gone and the status is the
/// leader's own.
#[test]
fn wait_then_kill_process_group_ends_the_stragglers() {
    let _g = serial();
    let mut child = Command::new("sh")
        .args(["-c", "sleep 30 & echo $!; exit 3"])
        .stdout(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("spawn");
    let straggler = pid_line(child.stdout.as_mut().unwrap());
    let status = child.wait_then_kill_process_group().expect("wait and kill");
    assert_eq!(status.code(), Some(3));
    assert!(goes(straggler), "the straggler in the group still runs");
    // Reaped: a second call is refused, and wait gives the same status.
    let e = child.wait_then_kill_process_group().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
    assert_eq!(child.wait().unwrap(), status);
}

/// A leader killed by a signal: the status says so, and the group goes too.
#[test]
fn wait_then_kill_process_group_reports_a_killed_leader() {
    let _g = serial();
    let mut child = Command::new("sh")
        .args(["-c", "sleep 30 & echo $!; kill -TERM $$; sleep 30"])
        .stdout(Stdio::piped())
        .setsid(true)
        .spawn()
        .expect("spawn");
    let straggler = pid_line(child.stdout.as_mut().unwrap());
    let status = child.wait_then_kill_process_group().expect("wait and kill");
    assert_eq!(status.signal(), Some(libc::SIGTERM));
    assert!(goes(straggler), "the straggler in the group still runs");
}

/// Only for a child that leads its own group, as `kill_process_group`.
#[test]
fn wait_then_kill_process_group_refuses_a_child_in_our_group() {
    let mut child = Command::new("true").spawn().expect("spawn");
    let e = child.wait_then_kill_process_group().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
    child.wait().unwrap();
}

// ---- kill_on_drop ----

/// A kill-on-drop child whose `SIGKILL` is refused (`EPERM`: it runs as another user and
/// this process gave up root, as after a setuid program): dropping its `Child` returns at
/// once, and the child is still reaped, by the reaper thread, once it exits by itself.
#[test]
fn kill_on_drop_never_blocks_for_a_child_that_cannot_be_killed() {
    let _g = serial();
    #[path = "support/isolated.rs"]
    mod isolated;
    isolated::isolated(
        "kill_on_drop_never_blocks_for_a_child_that_cannot_be_killed",
        || {
            // SAFETY: geteuid cannot fail.
            if unsafe { libc::geteuid() } != 0 {
                println!("skipped: making a child this process cannot kill needs root");
                return;
            }
            let child = Command::new("sleep")
                .arg("2")
                .uid(65533)
                .gid(65533)
                .kill_on_drop(true)
                .spawn()
                .expect("spawn as another user");
            let pid = child.id() as libc::pid_t;
            // SAFETY: this sub-process gives up root for good: setuid as root sets the real,
            // effective and saved ids (POSIX), for every thread (libc's setxid).
            assert_eq!(unsafe { libc::setuid(65534) }, 0);
            // SAFETY: signal 0 only checks.
            let e = unsafe { libc::kill(pid, 0) };
            assert_eq!(
                (e, std::io::Error::last_os_error().raw_os_error()),
                (-1, Some(libc::EPERM)),
                "the child can still be signalled"
            );
            let start = Instant::now();
            drop(child);
            let took = start.elapsed();
            assert!(
                took < Duration::from_millis(500),
                "the drop blocked for {took:?}"
            );
            assert!(reaped_soon(pid), "the dropped child was never reaped");
        },
    );
}

/// The usual case: the kill works, the drop returns, and the child is reaped soon after
/// (by the drop itself or the reaper), leaving no zombie.
#[test]
fn kill_on_drop_kills_and_then_reaps_without_waiting() {
    let _g = serial();
    let child = Command::new("sleep")
        .arg("30")
        .kill_on_drop(true)
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    drop(child);
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    assert!(reaped_soon(pid), "the dropped child was never reaped");
}

// ---- into_pidfd ----

/// `into_pidfd` hands the process over: a kill-on-drop `Child` consumed by it neither kills
/// nor reaps, so the pidfd is a live process's, and its owner ends it.
#[cfg(target_os = "linux")]
#[test]
fn into_pidfd_of_a_kill_on_drop_child_gives_a_live_process() {
    use spawnmatrix_spawn::os::linux::process::{ChildExt, CommandExt as _};
    let _g = serial();
    let child = Command::new("sleep")
        .arg("30")
        .kill_on_drop(true)
        .create_pidfd(true)
        .spawn()
        .expect("spawn");
    let Ok(pidfd) = child.into_pidfd() else {
        println!("skipped: no pidfd on this kernel");
        return;
    };
    // Long enough for a SIGKILL sent by the Child's drop to take effect and its reaper to
    // reap: the process must still run, not be a zombie nor reaped (a check at once could
    // beat the kill).
    std::thread::sleep(std::time::Duration::from_millis(300));
    let status = pidfd
        .try_wait()
        .expect("try_wait: the process behind the pidfd was reaped");
    assert_eq!(status, None, "the process behind the pidfd has ended");
    pidfd.send_signal(0).expect("the process is alive");
    pidfd.kill().unwrap();
    assert_eq!(pidfd.wait().unwrap().signal(), Some(libc::SIGKILL));
}

/// `get_kill_on_drop` reads back what `kill_on_drop` set, default off (tokio's and
/// async-process's `Command::get_kill_on_drop`).
#[test]
fn get_kill_on_drop_reads_back_the_setting() {
    let mut c = Command::new("true");
    assert!(!c.get_kill_on_drop());
    assert!(c.kill_on_drop(true).get_kill_on_drop());
    assert!(!c.kill_on_drop(false).get_kill_on_drop());
}
