//! `RLIMIT_NPROC` reached: no strategy can create a process. Each must answer `EAGAIN` as an
//! error (never `Unsupported`, never learned as "this strategy does not work here"), leaving
//! no child, no fd and no changed signal mask behind; once the limit is lifted, spawning works.

use std::io::ErrorKind;

use spawnmatrix::spawn::{Command, Strategy};

use super::rlimit::{limit, set_soft, Resource};
use super::strategies::FORCEABLE;
use super::subprocess::isolated;

/// The fds open in this process (found by `fcntl`, so no /proc is needed).
fn open_fds() -> Vec<i32> {
    // SAFETY: F_GETFD on an fd number only reads its flags.
    (0..4096)
        .filter(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1)
        .collect()
}

/// The calling thread's signal mask, as the kernel has it: the raw `rt_sigprocmask` query
/// (libc's wrapper could hide the signals it reserves).
fn kernel_mask() -> u64 {
    let mut mask: u64 = 0;
    // SAFETY: a query (no new set) into one 64-bit word, the kernel's sigset size here.
    let r = unsafe {
        libc::syscall(
            libc::SYS_rt_sigprocmask,
            libc::SIG_BLOCK,
            std::ptr::null::<u64>(),
            &mut mask,
            std::mem::size_of::<u64>(),
        )
    };
    assert_eq!(r, 0, "rt_sigprocmask: {}", std::io::Error::last_os_error());
    mask
}

/// Root is exempt from `RLIMIT_NPROC`: become `nobody` (which drops every capability).
fn unprivileged() {
    spawnmatrix::sandbox::subject_to_nproc().expect("becoming nobody");
}

/// Sets the soft `RLIMIT_NPROC` (capped at the hard limit).
fn set_nproc_soft(soft: libc::rlim_t) {
    let hard = limit(libc::RLIMIT_NPROC as Resource).rlim_max;
    set_soft(libc::RLIMIT_NPROC as Resource, soft.min(hard));
}

/// A kernel probe that fails for want of a process or an fd (`EAGAIN`, `EMFILE`) learned
/// nothing: the capability is unknown (`kernel-probe-failed`), never reported absent, and the
/// report leaves it out.
#[test]
fn caps_probe_failures_are_unknown_not_absent() {
    isolated("nproc::caps_probe_failures_are_unknown_not_absent", || {
        unprivileged();
        set_nproc_soft(0);
        // No new fd: the limit is the lowest free number (fds above it may stay open).
        // SAFETY: dup of stdin to the lowest free number, closed at once.
        let lowest_free = unsafe {
            let fd = libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 0);
            assert!(fd >= 0);
            libc::close(fd);
            fd
        };
        set_soft(libc::RLIMIT_NOFILE as Resource, lowest_free as libc::rlim_t);
        let caps = spawnmatrix::caps::detect();
        for name in ["CLONE_CLEAR_SIGHAND", "pidfd_open"] {
            let cap = &caps[name];
            println!("{name}: {cap:?}");
            assert_eq!(cap.how, "kernel-probe-failed", "{name}: {cap:?}");
        }
        let report = spawnmatrix::report::Capability::observed_all(caps);
        assert!(
            !report.contains_key("pidfd_open"),
            "unknown is left out of reports"
        );
        assert!(report.contains_key("clone3"));
    });
}

#[test]
fn nproc_reached_is_eagain_and_leaves_nothing() {
    isolated("nproc::nproc_reached_is_eagain_and_leaves_nothing", || {
        // Learn what is available before the limit, as a long-running program would have.
        let available: Vec<Strategy> = Strategy::available();
        unprivileged();
        set_nproc_soft(0);
        let fds = open_fds();
        let mask = kernel_mask();
        let cwd = std::env::current_dir().unwrap();
        for strategy in FORCEABLE {
            let r = Command::new("true").strategy(strategy).spawn();
            let e = r.expect_err("no process can be created");
            println!("RLIMIT_NPROC: {strategy}: {e}");
            if available.contains(&strategy) {
                assert_eq!(e.raw_os_error(), Some(libc::EAGAIN), "{strategy}: {e}");
            } else {
                assert_eq!(e.kind(), ErrorKind::Unsupported, "{strategy}: {e}");
            }
            assert_eq!(open_fds(), fds, "{strategy} leaked an fd");
            assert_eq!(kernel_mask(), mask, "{strategy} changed the signal mask");
            assert_eq!(std::env::current_dir().unwrap(), cwd);
            // SAFETY: waitpid with a null status pointer.
            let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
            assert_eq!(r, -1, "{strategy} left a child");
        }
        // EAGAIN was not learned as a refusal: the same strategies work again.
        set_nproc_soft(libc::RLIM_INFINITY);
        assert_eq!(Strategy::available(), available);
        for &strategy in &available {
            let status = Command::new("true").strategy(strategy).status();
            assert!(status.expect("spawns again").success(), "{strategy}");
        }
    });
}
