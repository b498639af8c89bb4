//! The child's pidfd refers to the child and nothing else, under every strategy (Linux): it is
//! taken in the step that creates the child, so a child reaped at once (`SIGCHLD` ignored)
//! does not leave it to a process that reused the pid; and a `Child` whose process was reaped
//! through its pidfd signals and waits for nothing else.
//!
//! Where this runs as root, a decoy process is made to take the freed pid
//! (`/proc/sys/kernel/ns_last_pid`), so a signal or pidfd that went by pid would hit it.

#![cfg(target_os = "linux")]

use std::io::ErrorKind;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rstest::rstest;
use spawnmatrix_spawn::os::linux::process::{ChildExt, CommandExt as _};
use spawnmatrix_spawn::os::unix::process::ExitStatusExt;
use spawnmatrix_spawn::{Command, Strategy};

#[path = "support/decoy.rs"]
mod decoy;
#[path = "support/isolated.rs"]
mod isolated;
use decoy::untouched;
use isolated::isolated;

include!("support/paths.rs");

/// A decoy on `pid` (see `support/decoy.rs`).
fn decoy_at(pid: libc::pid_t) -> Option<std::process::Child> {
    decoy::decoy_at(pid, false)
}

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// The `Pid:` of a pidfd's fdinfo: -1 once the process is reaped. Without `/proc` mounted
/// (a bare root) the kernel is asked through the pidfd (`PIDFD_GET_INFO`, Linux 6.13), which
/// says `ESRCH` once the process is reaped; a kernel without it fails the test.
fn fdinfo_pid(fd: BorrowedFd<'_>) -> i64 {
    use spawnmatrix_spawn::sys::linux_kernel::{PidfdInfo, PIDFD_GET_INFO, PIDFD_INFO_PID};
    match std::fs::read_to_string(format!("/proc/self/fdinfo/{}", fd.as_raw_fd())) {
        Ok(info) => {
            let line = info.lines().find_map(|l| l.strip_prefix("Pid:")).unwrap();
            return line.trim().parse().unwrap();
        }
        Err(e) => assert!(std::fs::metadata("/proc/self").is_err(), "fdinfo: {e}"),
    }
    let mut info = PidfdInfo {
        mask: PIDFD_INFO_PID,
        ..PidfdInfo::default()
    };
    // SAFETY: the ioctl writes at most the struct its number encodes.
    if unsafe { libc::ioctl(fd.as_raw_fd(), PIDFD_GET_INFO as _, &mut info) } == 0 {
        return i64::from(info.pid);
    }
    let e = std::io::Error::last_os_error();
    assert_eq!(
        e.raw_os_error(),
        Some(libc::ESRCH),
        "no /proc, and PIDFD_GET_INFO: {e}"
    );
    -1
}

/// Waits until the pidfd's process is gone (reaped), at most 10 s.
fn until_reaped(fd: BorrowedFd<'_>) {
    let start = Instant::now();
    while fdinfo_pid(fd) != -1 {
        assert!(start.elapsed() < Duration::from_secs(10), "never reaped");
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn readable(fd: BorrowedFd<'_>) -> bool {
    let mut p = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd.
    unsafe { libc::poll(&mut p, 1, 0) == 1 }
}

/// Whether a forced strategy cannot give a race-free pidfd here: posix_spawn without
/// glibc 2.39's `pidfd_spawn`.
fn no_atomic_pidfd(strategy: Strategy) -> bool {
    strategy == Strategy::PosixSpawn && spawnmatrix_spawn::sys::spawn_ext::pidfd_spawn().is_none()
}

#[path = "support/strategies.rs"]
mod strategies;
use strategies::STRATEGIES;

/// With `SIGCHLD` ignored the kernel reaps the child as it exits, and its pid is free at once.
/// The pidfd (`create_pidfd`) and the exit fd taken at spawn (`Command::exit_fd`) still refer
/// to the child: the fdinfo says it is gone (`Pid: -1`, not the decoy's pid), the exit fd
/// polls readable, and `PidFd::kill` and `Child::kill` answer `ESRCH` and leave the decoy
/// alone.
#[rstest]
fn pidfd_refers_to_the_child_even_when_sigchld_is_ignored() {
    let _g = serial();
    isolated(
        "pidfd_refers_to_the_child_even_when_sigchld_is_ignored",
        || {
            // SAFETY: this process (a sub-process of its own) ignores SIGCHLD from now on.
            unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
            for strategy in STRATEGIES.into_iter().filter(|s| s.is_available()) {
                for exit_fd in [false, true] {
                    let mut c = Command::new(true_program());
                    c.strategy(strategy);
                    match exit_fd {
                        true => c.exit_fd(true),
                        false => c.create_pidfd(true),
                    };
                    let mut child = c.spawn().unwrap();
                    let pid = child.id() as libc::pid_t;
                    if no_atomic_pidfd(strategy) {
                        let e = match exit_fd {
                            true => child.exit_fd().unwrap_err(),
                            false => child.pidfd().unwrap_err(),
                        };
                        assert_eq!(e.kind(), ErrorKind::Unsupported, "{strategy}: {e}");
                        continue;
                    }
                    let fd = match exit_fd {
                        true => child.exit_fd().expect("the exit fd taken at spawn"),
                        false => child.pidfd().expect("the pidfd").as_fd(),
                    };
                    until_reaped(fd);
                    // The decoy is waited for below, so it must not be reaped unasked.
                    // SAFETY: this test's own sub-process.
                    unsafe { libc::signal(libc::SIGCHLD, libc::SIG_DFL) };
                    let decoy = decoy_at(pid);
                    let fd = match exit_fd {
                        true => child.exit_fd().unwrap(),
                        false => child.pidfd().unwrap().as_fd(),
                    };
                    assert_eq!(fdinfo_pid(fd), -1, "{strategy}: the fd is the decoy's");
                    assert!(readable(fd), "{strategy}: the fd does not see the exit");
                    if !exit_fd {
                        let e = child.pidfd().unwrap().kill().unwrap_err();
                        assert_eq!(e.raw_os_error(), Some(libc::ESRCH), "{strategy}");
                    }
                    let e = child.kill().unwrap_err();
                    assert_eq!(e.raw_os_error(), Some(libc::ESRCH), "{strategy}");
                    assert!(untouched(decoy), "{strategy}: the decoy was signalled");
                    // SAFETY: this test's own sub-process ignores SIGCHLD again below.
                    unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
                }
            }
        },
    );
}

/// `PidFd::wait` reaps the child and tells its `Child`: `Child::kill` then signals nothing
/// (the decoy that took the pid lives on), and `wait`/`try_wait` give the same status.
#[rstest]
fn child_kill_after_pidfd_wait_spares_the_reused_pid(
    #[values(
        Strategy::Auto,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::PosixSpawn,
        Strategy::Fork
    )]
    strategy: Strategy,
) {
    let _g = serial();
    if !strategy.is_available() || no_atomic_pidfd(strategy) {
        return;
    }
    let mut child = Command::new("sleep")
        .arg("100")
        .strategy(strategy)
        .create_pidfd(true)
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let pidfd = child.pidfd().unwrap();
    pidfd.kill().unwrap();
    let status = pidfd.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    let decoy = decoy_at(pid);
    child
        .kill()
        .expect("a child reaped through its pidfd needs no signal");
    assert!(
        untouched(decoy),
        "{strategy}: Child::kill hit the reused pid"
    );
    assert_eq!(child.try_wait().unwrap(), Some(status));
    assert_eq!(child.wait().unwrap(), status);
}

/// A failed exec with a pidfd asked for is still the error (the pidfd message of a forked
/// child comes before its errno report), and leaves no fd and no child behind.
#[rstest]
fn failed_exec_with_a_pidfd_is_the_error(
    #[values(
        Strategy::Auto,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::PosixSpawn,
        Strategy::Fork
    )]
    strategy: Strategy,
) {
    let _g = serial();
    if !strategy.is_available() {
        return;
    }
    // The open fds, by fcntl (no /proc needed: a bare root mounts none).
    // SAFETY: F_GETFD on an fd number only reads its flags.
    let fds = || {
        (0..4096)
            .filter(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1)
            .count()
    };
    let before = fds();
    let e = Command::new("/nonexistent/program")
        .strategy(strategy)
        .create_pidfd(true)
        .spawn()
        .unwrap_err();
    assert_eq!(e.raw_os_error(), Some(libc::ENOENT), "{strategy}: {e}");
    assert_eq!(fds(), before, "{strategy}: an fd leaked");
    // SAFETY: waitpid with a null status pointer.
    let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
    assert_eq!(r, -1, "{strategy}: a child is left over");
}

/// Whether `pidfd_spawn` is there (glibc 2.39+); says so when it is not.
fn has_pidfd_spawn() -> bool {
    let here = spawnmatrix_spawn::sys::spawn_ext::pidfd_spawn().is_some();
    if !here {
        println!("skipped: no pidfd_spawn in this libc (glibc 2.39+)");
    }
    here
}

/// A forced `PosixSpawn` with a pidfd, killed and waited for through its `Child`: the pid
/// is this process's child (`waitpid` by `Child::id` reaps it), and none is left over.
fn spawn_and_check_the_pid() {
    let child = Command::new("sleep")
        .arg("30")
        .strategy(Strategy::PosixSpawn)
        .create_pidfd(true)
        .spawn()
        .expect("a started child is a spawned child");
    let pid = child.id() as libc::pid_t;
    assert!(pid > 0, "no pid for a running child");
    // SAFETY: signal 0 only checks.
    assert_eq!(
        unsafe { libc::kill(pid, 0) },
        0,
        "pid {pid} is not the child"
    );
    child.pidfd().unwrap().kill().unwrap();
    let mut raw = 0;
    // SAFETY: waits for the pid the Child gave: it must be ours.
    let got = unsafe { libc::waitpid(pid, &mut raw, 0) };
    assert_eq!(
        got,
        pid,
        "waitpid({pid}): {}",
        std::io::Error::last_os_error()
    );
    assert!(libc::WIFSIGNALED(raw) && libc::WTERMSIG(raw) == libc::SIGKILL);
    // SAFETY: a null status pointer.
    assert_eq!(
        unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) },
        -1
    );
}

/// 40 forced `PosixSpawn`s with a pidfd of a program that ends at once, in a process that
/// ignores `SIGCHLD` (so the kernel reaps each child, maybe before its pid is read): each
/// spawn succeeds (a started child is never a failed spawn), its `Child` works through the
/// pidfd, and its wait ends.
fn forty_spawns_with_sigchld_ignored() {
    // SAFETY: this sub-process ignores SIGCHLD from now on.
    unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
    let mut without_pid = 0;
    for run in 0..40 {
        let mut child = Command::new(true_program())
            .strategy(Strategy::PosixSpawn)
            .create_pidfd(true)
            .spawn()
            .unwrap_or_else(|e| panic!("run {run}: a child that ran is an error: {e}"));
        if child.id() == 0 {
            without_pid += 1;
        }
        match child.wait() {
            Ok(s) => assert!(s.success(), "run {run}: {s:?}"),
            Err(e) => assert_eq!(e.raw_os_error(), Some(libc::ECHILD), "run {run}: {e}"),
        }
    }
    println!("{without_pid} of 40 children were reaped before their pid was read");
}

/// `SIGCHLD` ignored: the spawn still succeeds every time (it was `ESRCH` in 19 of 40).
#[test]
fn pidfd_spawn_with_sigchld_ignored_never_fails_a_started_child() {
    let _g = serial();
    if !has_pidfd_spawn() {
        return;
    }
    isolated(
        "pidfd_spawn_with_sigchld_ignored_never_fails_a_started_child",
        forty_spawns_with_sigchld_ignored,
    );
}

/// `SIGCHLD` ignored and no `/proc` (a reaped child's pid cannot come from fdinfo's `Pid: -1`
/// either): still never a failed spawn.
#[test]
fn pidfd_spawn_without_proc_and_sigchld_ignored_never_fails_a_started_child() {
    let _g = serial();
    if !has_pidfd_spawn() {
        return;
    }
    isolated::isolated_after(
        "pidfd_spawn_without_proc_and_sigchld_ignored_never_fails_a_started_child",
        without_proc,
        || {
            assert!(std::fs::metadata("/proc/self").is_err(), "/proc is mounted");
            forty_spawns_with_sigchld_ignored();
        },
    );
}

/// Whether the kernel answers `PIDFD_GET_INFO` (Linux 6.13), asked on this process's pidfd.
fn kernel_has_pidfd_get_info() -> bool {
    use spawnmatrix_spawn::sys::linux_kernel::{PidfdInfo, PIDFD_GET_INFO, PIDFD_INFO_PID};
    // SAFETY: pidfd_open of this process; the fd is owned below.
    let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) };
    if raw < 0 {
        return false;
    }
    // SAFETY: a new fd, owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(raw as libc::c_int) };
    let mut info = PidfdInfo {
        mask: PIDFD_INFO_PID,
        ..PidfdInfo::default()
    };
    // SAFETY: the ioctl writes at most the struct its number encodes.
    unsafe { libc::ioctl(fd.as_raw_fd(), PIDFD_GET_INFO as _, &mut info) == 0 }
}

/// Unmounts `/proc` in a mount namespace of its own (root). The `/proc` mounts are made
/// private first, so the unmount cannot propagate back to this process's namespace.
fn without_proc() -> std::io::Result<()> {
    // SAFETY: namespace and mount calls in the child before exec, async-signal-safe.
    unsafe {
        if libc::unshare(libc::CLONE_NEWNS) != 0
            || libc::mount(
                std::ptr::null(),
                c"/proc".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            || libc::umount2(c"/proc".as_ptr(), libc::MNT_DETACH) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// No `/proc`: the pid comes from the pidfd itself (`PIDFD_GET_INFO`), and is right; where
/// the kernel lacks the ioctl the spawn is an error, after the child was killed and reaped
/// (nothing left running, no zombie).
#[test]
fn pidfd_spawn_without_proc_gives_the_right_pid() {
    let _g = serial();
    if !has_pidfd_spawn() {
        return;
    }
    isolated::isolated_after(
        "pidfd_spawn_without_proc_gives_the_right_pid",
        without_proc,
        || {
            assert!(std::fs::metadata("/proc/self").is_err(), "/proc is mounted");
            if kernel_has_pidfd_get_info() {
                spawn_and_check_the_pid();
                return;
            }
            println!("this kernel has no PIDFD_GET_INFO (6.13): the spawn must fail, cleanly");
            let e = Command::new("sleep")
                .arg("30")
                .strategy(Strategy::PosixSpawn)
                .create_pidfd(true)
                .spawn()
                .expect_err("a child whose pid cannot be read was reported as spawned");
            assert!(e.to_string().contains("killed and reaped"), "{e}");
            // SAFETY: a null status pointer.
            let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
            assert_eq!(r, -1, "a child is left over");
        },
    );
}

/// Makes the process about to exec pid 1 of a new pid namespace, keeping the old `/proc`
/// (of the parent namespace): this process forks the one that goes on, waits for it and
/// exits with its status.
fn in_new_pid_namespace() -> std::io::Result<()> {
    // SAFETY: unshare, fork, waitpid and _exit in the child before exec: async-signal-safe.
    unsafe {
        if libc::unshare(libc::CLONE_NEWPID) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        match libc::fork() {
            -1 => Err(std::io::Error::last_os_error()),
            0 => Ok(()),
            pid => {
                let mut st = 0;
                while libc::waitpid(pid, &mut st, 0) == -1 {}
                libc::_exit(if libc::WIFEXITED(st) {
                    libc::WEXITSTATUS(st)
                } else {
                    1
                })
            }
        }
    }
}

/// A `/proc` of the parent pid namespace: its fdinfo would give the child's pid there, not
/// here. `Child::id` is the pid in this process's namespace.
#[test]
fn pidfd_spawn_under_a_proc_of_another_pid_namespace_gives_this_namespaces_pid() {
    let _g = serial();
    if !has_pidfd_spawn() {
        return;
    }
    isolated::isolated_after(
        "pidfd_spawn_under_a_proc_of_another_pid_namespace_gives_this_namespaces_pid",
        in_new_pid_namespace,
        || {
            // SAFETY: getpid cannot fail.
            assert_eq!(unsafe { libc::getpid() }, 1, "not in a new pid namespace");
            spawn_and_check_the_pid();
        },
    );
}
