//! `RLIMIT_NPROC` reached: no strategy can create a process. Each must answer `EAGAIN` as an
//! error (never `Unsupported`, never learned as "this strategy does not work here"), leaving
//! no child, no fd and no changed signal mask behind; once the limit is lifted, spawning works.

use std::io::ErrorKind;

use spawnmatrix::spawn::{Command, Strategy};

use super::strategies::FORCEABLE;
use super::subprocess::isolated;

const NOBODY: libc::uid_t = 65534;

/// The fds open in this process.
fn open_fds() -> Vec<String> {
    let mut fds: Vec<String> = std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    fds.sort();
    fds
}

/// The calling thread's signal mask, as the kernel has it.
fn kernel_mask() -> String {
    let status = std::fs::read_to_string("/proc/thread-self/status").unwrap();
    status
        .lines()
        .find(|l| l.starts_with("SigBlk:"))
        .unwrap()
        .to_string()
}

/// Root is exempt from `RLIMIT_NPROC`: become `nobody` (which drops every capability).
fn unprivileged() {
    // SAFETY: plain identity changes; glibc and musl apply them to every thread.
    unsafe {
        if libc::geteuid() != 0 {
            return;
        }
        assert_eq!(libc::setgroups(0, std::ptr::null()), 0, "setgroups");
        assert_eq!(libc::setgid(NOBODY), 0, "setgid");
        assert_eq!(libc::setuid(NOBODY), 0, "setuid");
    }
}

fn set_nproc_soft(soft: libc::rlim_t) {
    // SAFETY: reads then writes this process's limit (soft at or below the hard limit).
    unsafe {
        let mut rl: libc::rlimit = std::mem::zeroed();
        assert_eq!(libc::getrlimit(libc::RLIMIT_NPROC, &mut rl), 0);
        rl.rlim_cur = soft.min(rl.rlim_max);
        assert_eq!(libc::setrlimit(libc::RLIMIT_NPROC, &rl), 0, "setrlimit");
    }
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
            let r = Command::new("/bin/true").strategy(strategy).spawn();
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
            let status = Command::new("/bin/true").strategy(strategy).status();
            assert!(status.expect("spawns again").success(), "{strategy}");
        }
    });
}
