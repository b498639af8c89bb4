//! `Command::spawn_detached` (issue 31): the child leaves no zombie under every strategy,
//! and the mechanism is the one the docs name: clone3's `CLONE_AUTOREAP` (Linux 7.1), the
//! reaper thread otherwise. Seen from outside the library: an autoreaped child has no exit
//! signal, so this process gets no `SIGCHLD`; one the reaper reaps sends it.

#![cfg(unix)]

use std::io;
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rstest::rstest;
use spawnmatrix_spawn::{Command, Strategy};

/// Linux's `__WALL` (clone children whose exit signal is not `SIGCHLD` too); other systems
/// have no such class of child, so their waits need no flag for it.
#[cfg(any(target_os = "linux", target_os = "android"))]
const WALL: libc::c_int = libc::__WALL;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const WALL: libc::c_int = 0;

#[path = "support/isolated.rs"]
mod isolated;

/// A detached `sleep 0.2`, or `None` (printed) where this kernel refuses a forced clone3 or
/// the platform lacks the strategy.
fn detached(strategy: Strategy) -> Option<libc::pid_t> {
    match Command::new("sleep")
        .arg("0.2")
        .strategy(strategy)
        .spawn_detached()
    {
        Err(e) if e.kind() == io::ErrorKind::Unsupported && strategy != Strategy::Auto => {
            println!("skipped: {strategy} unsupported here: {e}");
            None
        }
        r => Some(r.unwrap_or_else(|e| panic!("{strategy}: {e}")) as libc::pid_t),
    }
}

/// Whether `pid` is still a child of this process (running or a zombie) after `within`.
#[cfg(not(target_os = "cygwin"))]
fn still_a_child_after(pid: libc::pid_t, within: Duration) -> bool {
    let end = Instant::now() + within;
    loop {
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid with WNOWAIT only looks (it reaps nothing); it writes `info`.
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT | WALL,
            )
        };
        if rc == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) {
            return false;
        }
        if Instant::now() > end {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// As above, on Cygwin, where the libc crate has no `waitid`: `kill(pid, 0)` succeeds for a
/// running child and a zombie alike and fails with `ESRCH` only once the pid is reaped.
#[cfg(target_os = "cygwin")]
fn still_a_child_after(pid: libc::pid_t, within: Duration) -> bool {
    let end = Instant::now() + within;
    loop {
        // SAFETY: signal 0 sends nothing; it only asks whether the pid exists.
        let rc = unsafe { libc::kill(pid, 0) };
        if rc == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH) {
            return false;
        }
        if Instant::now() > end {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::PosixSpawn)]
#[case(Strategy::Fork)]
#[cfg_attr(target_os = "linux", case(Strategy::Clone3))]
#[cfg_attr(target_os = "linux", case(Strategy::CloneVfork))]
fn spawn_detached_leaves_no_zombie(#[case] strategy: Strategy) {
    let Some(pid) = detached(strategy) else {
        return;
    };
    assert!(pid > 0, "{strategy}");
    assert!(
        !still_a_child_after(pid, Duration::from_secs(10)),
        "{strategy}: the detached child is still a child (running or a zombie) after 10 s"
    );
}

#[test]
fn spawn_detached_reports_a_spawn_error() {
    let err = Command::new("/nonexistent/program")
        .spawn_detached()
        .expect_err("ENOENT");
    assert_eq!(err.raw_os_error(), Some(libc::ENOENT), "{err}");
}

#[cfg(target_os = "linux")]
static SIGCHLDS: AtomicUsize = AtomicUsize::new(0);

#[cfg(target_os = "linux")]
extern "C" fn count(_: libc::c_int) {
    SIGCHLDS.fetch_add(1, Ordering::SeqCst);
}

/// In a re-executed copy (its only children are these): `CLONE_AUTOREAP` where the kernel
/// has it sends no `SIGCHLD`; the reaper fallback does.
#[cfg(target_os = "linux")]
#[test]
fn spawn_detached_is_autoreaped_where_the_kernel_has_clone_autoreap() {
    isolated::isolated(
        "spawn_detached_is_autoreaped_where_the_kernel_has_clone_autoreap",
        || {
            let caps = spawnmatrix_spawn::caps::detect();
            let clone3 = caps["clone3"].available && caps["crate.clone3"].available;
            let autoreap = &caps["CLONE_AUTOREAP"];
            println!("kernel: clone3 {clone3}, CLONE_AUTOREAP {autoreap:?}");
            if clone3 && !autoreap.available && autoreap.how != "kernel-clone3-child" {
                return println!("skipped: the caps probe cannot tell ({})", autoreap.how);
            }
            // SAFETY: installs a handler that only counts, for SIGCHLD, in this copy only.
            unsafe {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = count as extern "C" fn(libc::c_int) as usize;
                act.sa_flags = libc::SA_RESTART;
                assert_eq!(
                    libc::sigaction(libc::SIGCHLD, &act, std::ptr::null_mut()),
                    0
                );
            }
            for strategy in [Strategy::Clone3, Strategy::Fork] {
                if strategy == Strategy::Clone3 && !clone3 {
                    println!("clone3 refused here: nothing to see");
                    continue;
                }
                // A first spawn, waited for: the strategy's own one-time probe child (clone3
                // makes one) sends its SIGCHLD now, not below.
                let first = Command::new("true").strategy(strategy).status();
                assert!(first.expect("a first spawn").success(), "{strategy}");
                std::thread::sleep(Duration::from_millis(100));
                SIGCHLDS.store(0, Ordering::SeqCst);
                let pid = detached(strategy).expect("spawn_detached");
                assert!(
                    !still_a_child_after(pid, Duration::from_secs(10)),
                    "{strategy}"
                );
                std::thread::sleep(Duration::from_millis(100));
                let got = SIGCHLDS.load(Ordering::SeqCst);
                if strategy == Strategy::Clone3 && autoreap.available {
                    println!("{strategy}: CLONE_AUTOREAP: {got} SIGCHLD");
                    assert_eq!(got, 0, "{strategy}: an autoreaped child sent SIGCHLD");
                } else {
                    println!("{strategy}: the reaper thread: {got} SIGCHLD");
                    assert!(got >= 1, "{strategy}: the fallback's child sent no SIGCHLD");
                }
            }
        },
    );
}
