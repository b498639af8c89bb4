//! What this crate adds to `std::process`, each under every strategy (a strategy this
//! platform lacks, or one that cannot express the request, must refuse with `Unsupported`):
//! closing the fds the parent did not hand over, the child's pidfd, a pollable exit, and
//! `groups` (unstable in std).

mod support;

use std::os::fd::AsRawFd;

use rstest_reuse::apply;
use spawnmatrix::spawn::os::unix::process::{CommandExt, ExitStatusExt};
use spawnmatrix::spawn::{Stdio, Strategy};
use support::*;

/// The child gets stdio and its mapped fds only, even an fd the parent left inheritable; and
/// without `close_fds` that fd does reach it (so the test can fail).
#[apply(every_strategy)]
fn close_fds_leaves_only_stdio_and_mapped_fds(
    strategy: Strategy,
    #[values(false, true)] close: bool,
) {
    let _g = serial();
    cloexec_all_inherited();
    let file = tempfile::tempfile().unwrap();
    let leaked = dup_inheritable(&file);
    let mapped = dup_inheritable(&file);
    let (mut c, report) = helper(strategy);
    c.fd(7, mapped).close_fds(close);
    let r = c.spawn();
    let refused = matches!(&r, Err(e) if e.kind() == std::io::ErrorKind::Unsupported);
    drop(r.map(|mut child| child.wait()));
    if refused {
        // Only where the strategy is missing, or posix_spawn has neither addclosefrom_np nor
        // Apple's POSIX_SPAWN_CLOEXEC_DEFAULT with addinherit_np.
        use spawnmatrix::sys::{flags, spawn_ext};
        let cloexec_default = flags::by_name("POSIX_SPAWN_CLOEXEC_DEFAULT").is_some()
            && spawn_ext::addinherit().is_some();
        let posix_cannot = strategy == Strategy::PosixSpawn
            && close
            && spawn_ext::addclosefrom().is_none()
            && !cloexec_default;
        assert!(
            !strategy.is_available() || posix_cannot,
            "{strategy} refused"
        );
        return;
    }
    let state = spawnmatrix::child::ChildState::read(report.path()).unwrap();
    let fds = fd_numbers(&state);
    if close {
        assert_eq!(fds, vec![0, 1, 2, 7], "{strategy}");
    } else {
        assert!(fds.contains(&leaked.as_raw_fd()), "{strategy}: {fds:?}");
    }
    assert_no_children();
}

/// Closing the other fds must not close what reports the child's errno: a failed exec is
/// still an error, under every strategy.
#[apply(every_strategy)]
fn close_fds_keeps_exec_errors(strategy: Strategy) {
    let _g = serial();
    let mut c = command("/nonexistent/program", strategy);
    c.close_fds(true);
    match c.spawn() {
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {
            assert!(
                strategy != Strategy::Auto && strategy != Strategy::Fork,
                "{e}"
            )
        }
        Err(e) => assert_eq!(e.raw_os_error(), Some(libc::ENOENT), "{strategy}"),
        Ok(_) => panic!("{strategy}: a missing program must be an error"),
    }
    assert_no_children();
}

/// `groups` (unstable in std, so not in the parity suite): as root the child has exactly the
/// given groups, and this process keeps its own ids; more than `NGROUPS_MAX` fails the spawn.
/// Only a forked child sets ids: `Auto` forks, every other forced strategy must refuse
/// (`posix_spawn` cannot; a `CLONE_VM` child would make this process non-dumpable).
#[apply(every_strategy)]
fn groups_gid_uid_change_only_the_child(strategy: Strategy) {
    let _g = serial();
    // SAFETY: the id queries have no preconditions.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let max = kernel_ngroups_max();
    let groups_before = own_groups();
    let too_many: Vec<u32> = (0..=max as u32).collect();
    let r = command("/bin/sh", strategy)
        .groups(&too_many)
        .spawn()
        .map(drop);
    if !matches!(strategy, Strategy::Auto | Strategy::Fork) {
        assert_eq!(r.unwrap_err().kind(), std::io::ErrorKind::Unsupported);
        return;
    }
    assert!(r.is_err(), "{strategy}: {} groups accepted", too_many.len());
    if uid != 0 {
        return;
    }
    // The helper lives in root's cache folder, which the new user cannot enter: the shell's
    // `id` reports instead.
    let child = command("/bin/sh", strategy)
        .args(["-c", "id -u; id -ru; id -g; id -rg; id -G"])
        .uid(65534)
        .gid(65533)
        .groups(&[65533, 4])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    assert_eq!(
        child.strategy(),
        Strategy::Fork,
        "ids run in a forked child"
    );
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "65534\n65534\n65533\n65533\n65533 4\n"
    );
    // SAFETY: id queries.
    assert_eq!(
        unsafe { (libc::getuid(), libc::geteuid(), libc::getgid()) },
        (uid, uid, gid)
    );
    assert_eq!(own_groups(), groups_before, "this process's groups changed");
    assert_no_children();
}

/// The kernel's limit on supplementary groups. musl's `sysconf(_SC_NGROUPS_MAX)` answers a
/// fixed 32 (std's own test skips musl for that), so the kernel is asked where it can be.
fn kernel_ngroups_max() -> libc::c_long {
    #[cfg(target_os = "linux")]
    if let Some(n) = std::fs::read_to_string("/proc/sys/kernel/ngroups_max")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        return n;
    }
    // SAFETY: sysconf has no preconditions. (c_long: 32 bits on 32-bit targets.)
    unsafe { libc::sysconf(libc::_SC_NGROUPS_MAX) }
}

/// This process's supplementary groups.
fn own_groups() -> Vec<libc::gid_t> {
    let mut groups = vec![0 as libc::gid_t; 1024];
    // SAFETY: getgroups writes at most `groups.len()` entries.
    let n = unsafe { libc::getgroups(groups.len() as libc::c_int, groups.as_mut_ptr()) };
    groups.truncate(usize::try_from(n).expect("getgroups"));
    groups
}

/// `create_pidfd`: the child's pidfd exists under every strategy, refers to the child
/// (`PidFd::kill` ends it, `PidFd::wait` reaps it); without `create_pidfd` there is none.
#[cfg(target_os = "linux")]
#[apply(every_strategy)]
fn create_pidfd_gives_a_pidfd_for_the_child(strategy: Strategy) {
    use spawnmatrix::spawn::os::linux::process::{ChildExt, CommandExt as _};
    let _g = serial();
    let mut c = command("/bin/sh", strategy);
    c.args(["-c", "exec sleep 100"]).create_pidfd(true);
    let Some(r) = spawn_or_refused(&mut c, strategy) else {
        return;
    };
    let mut child = r.unwrap();
    // posix_spawn takes a pidfd only with glibc 2.39's pidfd_spawn; else it has none, never
    // one looked up by pid.
    if strategy == Strategy::PosixSpawn
        && spawnmatrix::spawn::sys::spawn_ext::pidfd_spawn().is_none()
    {
        let e = child.pidfd().expect_err("no race-free pidfd here");
        assert_eq!(e.kind(), std::io::ErrorKind::Unsupported, "{e}");
        child.kill().unwrap();
        child.wait().unwrap();
        assert_no_children();
        return;
    }
    let pidfd = child.pidfd().expect("a pidfd");
    pidfd.kill().unwrap();
    let status = pidfd.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    let mut plain = command("/bin/sh", strategy);
    plain.args(["-c", "exit 0"]);
    let mut child = plain.spawn().unwrap();
    assert!(child.pidfd().is_err());
    child.wait().unwrap();
    let child = command("/bin/sh", strategy)
        .args(["-c", "exit 0"])
        .create_pidfd(true)
        .spawn()
        .unwrap();
    let pidfd = child.into_pidfd().expect("into_pidfd");
    assert!(pidfd.wait().unwrap().success());
    assert_no_children();
}

/// `Child::exit_fd` polls readable only once the child has exited; `try_wait` then reaps it
/// without blocking.
#[apply(every_strategy)]
fn exit_fd_becomes_readable_when_the_child_exits(strategy: Strategy) {
    let _g = serial();
    let mut c = command("/bin/sh", strategy);
    c.args(["-c", "read x; exit 0"]).stdin(Stdio::piped());
    let Some(r) = spawn_or_refused(&mut c, strategy) else {
        return;
    };
    let mut child = r.unwrap();
    let poll = |fd: i32, ms: i32| {
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd.
        unsafe { libc::poll(&mut p, 1, ms) }
    };
    let fd = child.exit_fd().unwrap().as_raw_fd();
    assert_eq!(poll(fd, 50), 0, "{strategy}: readable while the child runs");
    assert!(child.try_wait().unwrap().is_none());
    drop(child.stdin.take());
    assert_eq!(
        poll(fd, 10_000),
        1,
        "{strategy}: not readable after the child exited"
    );
    assert!(child
        .try_wait()
        .unwrap()
        .expect("reaped without blocking")
        .success());
    assert_eq!(
        child.exit_fd().unwrap_err().kind(),
        std::io::ErrorKind::InvalidInput
    );
    assert_no_children();
}
