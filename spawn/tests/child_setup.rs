//! The typed child setup of issue 23 under every strategy that can express it, and
//! `Unsupported` under the others: `parent_death_signal`, `controlling_terminal`,
//! `foreground` and `cgroup` (Linux), and `retry_etxtbsy`.

#![cfg(target_os = "linux")]

use std::ffi::CStr;
use std::fs;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::time::Duration;

use rstest::rstest;
use spawnmatrix_spawn::os::unix::process::{CommandExt as _, ExitStatusExt};
use spawnmatrix_spawn::{Child, Command, Strategy};

include!("support/paths.rs");

/// A spawn under `strategy`, or `None` (printed) where this kernel refuses a forced clone3.
fn spawn_or_skip(c: &mut Command, strategy: Strategy) -> Option<Child> {
    match c.strategy(strategy).spawn() {
        Err(e) if e.kind() == io::ErrorKind::Unsupported && strategy == Strategy::Clone3 => {
            println!("skipped: clone3 refused here: {e}");
            None
        }
        r => Some(r.unwrap_or_else(|e| panic!("{strategy}: {e}"))),
    }
}

/// The child's process group, session, controlling terminal and that terminal's foreground
/// group: `[pgrp, session, tty_nr, tpgid]`, fields 5-8 of `/proc/<pid>/stat`. Without `/proc`
/// mounted (a bare root) they are asked instead: `getpgid` and `getsid` of the child, and the
/// session and foreground group of the pty through its `master` (`TIOCGSID`, `TIOCGPGRP`
/// answer for the slave there); `tty_nr` is then `tty` when the pty's session is the child's,
/// that is, when the pty is its controlling terminal, and 0 when not.
fn terminal_fields(pid: u32, master: &OwnedFd, tty: i64) -> [i64; 4] {
    if let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) {
        let after = &stat[stat.rfind(')').expect("comm ends") + 2..];
        let f: Vec<i64> = after.split(' ').map(|f| f.parse().unwrap_or(-1)).collect();
        return [f[2], f[3], f[4], f[5]];
    }
    assert!(fs::metadata("/proc/self").is_err(), "no stat for {pid}");
    let pid = pid as libc::pid_t;
    let (mut sid, mut front): (libc::pid_t, libc::pid_t) = (0, 0);
    // SAFETY: getpgid and getsid only read; the ioctls write one pid_t each.
    let (pgrp, session, tty_sid, tpgid) = unsafe {
        (
            libc::getpgid(pid),
            libc::getsid(pid),
            libc::ioctl(master.as_raw_fd(), libc::TIOCGSID, &mut sid),
            libc::ioctl(master.as_raw_fd(), libc::TIOCGPGRP, &mut front),
        )
    };
    assert!(
        pgrp > 0 && session > 0,
        "getpgid/getsid({pid}): {}",
        io::Error::last_os_error()
    );
    let tty_nr = if tty_sid == 0 && sid == session {
        tty
    } else {
        0
    };
    let tpgid = if tpgid == 0 { i64::from(front) } else { -1 };
    [i64::from(pgrp), i64::from(session), tty_nr, tpgid]
}

fn finish(mut child: Child) {
    child.kill().expect("kill");
    child.wait().expect("wait");
}

fn assert_unsupported(r: io::Result<Child>, names: &str) {
    let err = r.expect_err("must be refused");
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains(names), "{err}");
}

// ---- parent_death_signal ----

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
fn the_child_gets_the_signal_when_the_spawning_thread_ends(#[case] strategy: Strategy) {
    // The Linux semantics the docs warn about: the *thread* that spawned it ends, the
    // process does not, and the child is signalled.
    signalled_when_the_spawning_thread_ends(strategy, |_| {});
}

/// The signal is set after the child's ids change, which would clear it (prctl(2): a change
/// of the effective uid or gid clears the parent-death signal): a child that takes another
/// uid and gid still gets it. Root only (elsewhere no other ids can be taken). Not under
/// `CloneVfork`, which cannot change ids (`Unsupported`: they need a forked child).
#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
fn the_signal_outlasts_the_childs_change_of_ids(#[case] strategy: Strategy) {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        println!("skipped: not root, so the child cannot take other ids");
        return;
    }
    signalled_when_the_spawning_thread_ends(strategy, |c| {
        c.uid(65534).gid(65534);
    });
}

/// A `sleep 30` with `SIGTERM` as its parent-death signal (and `setup`), spawned from a
/// thread that then ends: the child must end by that signal.
fn signalled_when_the_spawning_thread_ends(strategy: Strategy, setup: fn(&mut Command)) {
    let child = std::thread::spawn(move || {
        let mut c = Command::new("sleep");
        c.arg("30").parent_death_signal(libc::SIGTERM);
        setup(&mut c);
        spawn_or_skip(&mut c, strategy)
    })
    .join()
    .expect("spawning thread");
    let Some(mut child) = child else { return };
    let status = child.wait_timeout(Duration::from_secs(10)).expect("wait");
    let Some(status) = status else {
        finish(child);
        panic!("{strategy}: the child outlived the thread that spawned it");
    };
    assert_eq!(
        status.signal(),
        Some(libc::SIGTERM),
        "{strategy}: {status:?}"
    );
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
fn a_living_spawning_thread_leaves_the_child_alone(#[case] strategy: Strategy) {
    let mut c = Command::new("sh");
    c.args(["-c", "exit 3"]).parent_death_signal(libc::SIGTERM);
    let Some(mut child) = spawn_or_skip(&mut c, strategy) else {
        return;
    };
    assert_eq!(child.wait().expect("wait").code(), Some(3), "{strategy}");
}

#[test]
fn an_unknown_parent_death_signal_is_invalid_input() {
    let err = Command::new("true")
        .parent_death_signal(100_000)
        .status()
        .unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
}

// ---- controlling_terminal and foreground ----

/// A new pseudo-terminal: the master and the slave (opened without becoming this
/// process's controlling terminal).
fn pty() -> (OwnedFd, OwnedFd) {
    // SAFETY: plain libc calls on fds this function owns; ptsname's buffer is copied at once.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
        assert!(master >= 0, "posix_openpt: {}", io::Error::last_os_error());
        let master = OwnedFd::from_raw_fd(master);
        assert_eq!(libc::grantpt(master.as_raw_fd()), 0);
        assert_eq!(libc::unlockpt(master.as_raw_fd()), 0);
        let name = CStr::from_ptr(libc::ptsname(master.as_raw_fd())).to_owned();
        let slave = libc::open(
            name.as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        );
        assert!(slave >= 0, "open {name:?}: {}", io::Error::last_os_error());
        (master, OwnedFd::from_raw_fd(slave))
    }
}

fn rdev(fd: &OwnedFd) -> i64 {
    let f = fs::File::from(fd.try_clone().expect("dup"));
    f.metadata().expect("fstat").rdev() as i64
}

/// The terminal is taken before the fd mapping runs, so it is the fd given even when the
/// mapping then puts another file on that fd number in the child: here `/dev/null` lands on
/// the tty's own number, and the child's controlling terminal is still the pty.
#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
fn the_terminal_is_taken_before_a_mapping_reuses_its_fd_number(#[case] strategy: Strategy) {
    let (master, slave) = pty();
    let tty = rdev(&slave);
    let number = slave.as_raw_fd();
    let null = fs::File::open("/dev/null").expect("open");
    let mut c = Command::new("sleep");
    c.arg("30").controlling_terminal(slave).fd(number, null);
    let Some(child) = spawn_or_skip(&mut c, strategy) else {
        return;
    };
    let pid = child.id();
    let f = terminal_fields(pid, &master, tty);
    let on_number = fs::read_link(format!("/proc/{pid}/fd/{number}"));
    finish(child);
    assert_eq!(
        f[2], tty,
        "{strategy}: the pty is not the child's controlling terminal"
    );
    match on_number {
        Err(_) if fs::metadata("/proc/self").is_err() => {
            // Uncaptured, so a bare run's log counts it.
            let _ = writeln!(
                io::stderr(),
                "skipped: the_terminal_is_taken_before_a_mapping_reuses_its_fd_number: \
                 what the child has on fd {number}: no /proc mounted"
            );
        }
        on_number => assert_eq!(
            on_number.expect("the mapped fd").to_str(),
            Some("/dev/null"),
            "{strategy}: the mapping did not put /dev/null on fd {number}"
        ),
    }
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
fn the_child_takes_the_terminal_as_its_controlling_one(#[case] strategy: Strategy) {
    let (master, slave) = pty();
    let tty = rdev(&slave);
    let mut c = Command::new("sleep");
    c.arg("30").controlling_terminal(slave);
    let Some(child) = spawn_or_skip(&mut c, strategy) else {
        return;
    };
    let pid = i64::from(child.id());
    let f = terminal_fields(child.id(), &master, tty);
    finish(child);
    // pgrp, session, tty_nr, tpgid.
    assert_eq!(
        (f[0], f[1], f[2], f[3]),
        (pid, pid, tty, pid),
        "{strategy}: a session of its own, the pty as its terminal, its group in front"
    );
}

#[test]
fn a_non_terminal_is_the_childs_enotty() {
    let file = fs::File::open("/dev/null").expect("open");
    let err = Command::new("true")
        .controlling_terminal(file)
        .status()
        .unwrap_err();
    assert_eq!(err.raw_os_error(), Some(libc::ENOTTY), "{err}");
}

/// The command marks the terminal's fd close-on-exec the moment it is handed over, so no
/// child another thread spawns meanwhile inherits it.
#[test]
fn the_terminal_fd_is_close_on_exec_once_handed_over() {
    let (_master, slave) = pty();
    // SAFETY: clears FD_CLOEXEC on an fd this test owns.
    unsafe { libc::fcntl(slave.as_raw_fd(), libc::F_SETFD, 0) };
    let raw = slave.as_raw_fd();
    let mut c = Command::new("true");
    c.controlling_terminal(slave);
    // SAFETY: a flag query on the fd the command now owns.
    let flags = unsafe { libc::fcntl(raw, libc::F_GETFD) };
    assert_eq!(flags & libc::FD_CLOEXEC, libc::FD_CLOEXEC);
}

/// A terminal that is already another session's controlling terminal: the child's
/// `TIOCSCTTY` fails with `EPERM`, the spawn's error, under every strategy that can.
#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
fn another_sessions_terminal_is_the_childs_eperm(#[case] strategy: Strategy) {
    let (_master, slave) = pty();
    let mut holder = Command::new("sleep");
    holder
        .arg("30")
        .controlling_terminal(slave.try_clone().expect("dup"));
    let Some(holder) = spawn_or_skip(&mut holder, strategy) else {
        return;
    };
    let r = Command::new("true")
        .controlling_terminal(slave)
        .strategy(strategy)
        .status();
    finish(holder);
    let err = r.expect_err("the terminal is taken");
    assert_eq!(err.raw_os_error(), Some(libc::EPERM), "{strategy}: {err}");
}

/// `foreground` of something that is not a terminal: the child's `ENOTTY`.
#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
fn foreground_of_a_non_terminal_is_the_childs_enotty(#[case] strategy: Strategy) {
    let file = fs::File::open("/dev/null").expect("open");
    let mut c = Command::new("true");
    c.process_group(0).foreground(file);
    let r = c.strategy(strategy).status();
    match r {
        Err(e) if e.kind() == io::ErrorKind::Unsupported && strategy == Strategy::Clone3 => {
            println!("skipped: clone3 refused here: {e}")
        }
        r => {
            let err = r.expect_err("not a terminal");
            assert_eq!(err.raw_os_error(), Some(libc::ENOTTY), "{strategy}: {err}");
        }
    }
}

/// Set in the re-executed copy to the strategy the foreground check runs under.
const FOREGROUND_MARKER: &str = "SPAWNOPTS_FOREGROUND_STRATEGY";

/// The body of the foreground check, in a process of its own: it leads a new session whose
/// controlling terminal is a new pty, spawns `sleep` in a new group with that group put in
/// front, and checks the terminal's foreground group is the child's.
#[test]
fn foreground_subprocess() {
    let Ok(name) = std::env::var(FOREGROUND_MARKER) else {
        return;
    };
    let strategy: Strategy = name.parse().expect("strategy");
    let (_master, slave) = pty();
    // SAFETY: this process is a fresh copy that owns its session from here on. The pty's
    // hangup when the master closes at the end would kill it: SIGHUP is ignored.
    unsafe {
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
        assert!(libc::setsid() > 0, "setsid: {}", io::Error::last_os_error());
        assert_eq!(libc::ioctl(slave.as_raw_fd(), libc::TIOCSCTTY, 0), 0);
    }
    let mut c = Command::new("sleep");
    c.arg("30")
        .process_group(0)
        .foreground(slave.try_clone().expect("dup"))
        .strategy(strategy);
    let child = match c.spawn() {
        Err(e) if e.kind() == io::ErrorKind::Unsupported => {
            println!("FOREGROUND-UNSUPPORTED {e}");
            return;
        }
        r => r.expect("spawn"),
    };
    let pid = child.id() as libc::pid_t;
    // SAFETY: reads the terminal's foreground group.
    let front = unsafe { libc::tcgetpgrp(slave.as_raw_fd()) };
    // SAFETY: getpgid only reads.
    let pgrp = unsafe { libc::getpgid(pid) };
    finish(child);
    assert_eq!(pgrp, pid, "the child leads its own group");
    assert_eq!(front, pid, "the child's group is in front");
    println!("FOREGROUND-OK {}", strategy);
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
#[case(Strategy::PosixSpawn)]
fn the_childs_group_is_put_in_front(#[case] strategy: Strategy) {
    let out = std::process::Command::new(own_exe())
        .args([
            "foreground_subprocess",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(FOREGROUND_MARKER, strategy.name())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{strategy}: the sub-process failed");
    let has_tcsetpgrp = spawnmatrix_spawn::sys::spawn_ext::addtcsetpgrp().is_some();
    if stdout.contains("FOREGROUND-UNSUPPORTED") {
        let refused_clone3 = strategy == Strategy::Clone3;
        let no_action = strategy == Strategy::PosixSpawn && !has_tcsetpgrp;
        assert!(
            refused_clone3 || no_action,
            "{strategy}: Unsupported without cause"
        );
        println!("skipped: {strategy} cannot here");
        return;
    }
    assert!(
        stdout.contains("FOREGROUND-OK"),
        "{strategy}: the check did not run"
    );
}

#[rstest]
#[case::pdeathsig("parent-death signal")]
#[case::ctty("controlling terminal")]
fn forced_posix_spawn_cannot(#[case] names: &str) {
    let mut c = Command::new("true");
    if names.starts_with("parent") {
        c.parent_death_signal(libc::SIGTERM);
    } else {
        c.controlling_terminal(pty().1);
    }
    assert_unsupported(c.strategy(Strategy::PosixSpawn).spawn(), names);
}

#[test]
fn auto_does_not_pick_posix_spawn_for_them() {
    let mut child = Command::new("true")
        .parent_death_signal(libc::SIGTERM)
        .spawn()
        .expect("spawn");
    assert_ne!(child.strategy(), Strategy::PosixSpawn);
    child.wait().expect("wait");
}

// ---- cgroup ----

/// A new cgroup v2 directory under a writable cgroup2 mount, or why there is none.
fn new_cgroup() -> Result<(std::path::PathBuf, String), String> {
    let mounts = fs::read_to_string("/proc/self/mountinfo").map_err(|e| e.to_string())?;
    let mount = mounts
        .lines()
        .find(|l| l.contains(" - cgroup2 "))
        .and_then(|l| l.split(' ').nth(4))
        .ok_or("no cgroup v2 mount")?;
    let name = format!(
        "spawnopts-test-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    );
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let dir = std::path::Path::new(mount).join(&name);
    fs::create_dir(&dir).map_err(|e| format!("{mount} is not writable: {e}"))?;
    Ok((dir, name))
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Clone3)]
fn the_child_starts_in_the_cgroup(#[case] strategy: Strategy) {
    let (dir, name) = match new_cgroup() {
        Ok(d) => d,
        Err(why) => {
            println!("skipped: no writable cgroup v2 here: {why}");
            return;
        }
    };
    let fd = fs::File::open(&dir).expect("open the cgroup");
    let mut c = Command::new("sleep");
    c.arg("30").cgroup(fd);
    let r = c.strategy(strategy).spawn();
    let child = match r {
        Err(e) if e.kind() == io::ErrorKind::Unsupported => {
            let _ = fs::remove_dir(&dir);
            println!("skipped: clone3 refused here: {e}");
            return;
        }
        r => r.unwrap_or_else(|e| panic!("{strategy}: {e}")),
    };
    assert_eq!(child.strategy(), Strategy::Clone3);
    let cgroups = fs::read_to_string(format!("/proc/{}/cgroup", child.id())).expect("cgroup");
    finish(child);
    fs::remove_dir(&dir).expect("rmdir");
    let v2 = cgroups
        .lines()
        .find(|l| l.starts_with("0::"))
        .expect("a v2 line");
    assert!(v2.ends_with(&format!("/{name}")), "{strategy}: {cgroups}");
}

#[rstest]
#[case(Strategy::Fork)]
#[case(Strategy::CloneVfork)]
#[case(Strategy::PosixSpawn)]
fn only_clone3_starts_a_child_in_a_cgroup(#[case] strategy: Strategy) {
    let fd = fs::File::open("/").expect("open");
    let mut c = Command::new("true");
    c.cgroup(fd).strategy(strategy);
    assert_unsupported(c.spawn(), "cgroup");
}

#[test]
fn a_cgroup_and_pre_exec_cannot_go_together() {
    let fd = fs::File::open("/").expect("open");
    let mut c = Command::new("true");
    c.cgroup(fd);
    // SAFETY: the closure does nothing.
    unsafe { c.pre_exec(|| Ok(())) };
    assert_unsupported(c.spawn(), "cgroup");
}

// ---- retry_etxtbsy ----

/// An executable script at a new path, with a write fd on it held by another thread for
/// `hold`, as a concurrent fork's child would hold one.
fn busy_executable(
    tag: &str,
    hold: Duration,
) -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::thread::JoinHandle<()>,
) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(format!("busy-{tag}"));
    let mut f = fs::File::create(&path).expect("create");
    f.write_all(b"#!/bin/sh\necho ran\n").expect("write");
    f.set_permissions(fs::Permissions::from_mode(0o755))
        .expect("chmod");
    let holder = std::thread::spawn(move || {
        std::thread::sleep(hold);
        drop(f);
    });
    (dir, path, holder)
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
#[case(Strategy::PosixSpawn)]
fn etxtbsy_without_retry_and_success_with_it(#[case] strategy: Strategy) {
    let (_dir, path, holder) = busy_executable(strategy.name(), Duration::from_secs(30));
    let err = match Command::new(&path).strategy(strategy).status() {
        Err(e) if e.kind() == io::ErrorKind::Unsupported => {
            println!("skipped: {strategy} refused here: {e}");
            return;
        }
        r => r.expect_err("a program open for writing cannot run"),
    };
    assert_eq!(err.raw_os_error(), Some(libc::ETXTBSY), "{strategy}: {err}");
    drop(holder);

    let (_dir, path, holder) = busy_executable(strategy.name(), Duration::from_millis(150));
    // Piped output: each retry makes its pipes afresh, and the last one's reach the Child.
    let out = Command::new(&path)
        .strategy(strategy)
        .retry_etxtbsy(20)
        .output()
        .unwrap_or_else(|e| panic!("{strategy}: the retries did not outlast the writer: {e}"));
    assert!(out.status.success(), "{strategy}: {out:?}");
    assert_eq!(out.stdout, b"ran\n", "{strategy}");
    holder.join().expect("holder");
}

/// The retries are bounded: 1, 2, 4 ms and so on, capped at 100 ms each, so `retries`
/// retries of a program that stays busy give up with `ETXTBSY` after about 1+2+4 ms (never
/// less: every sleep is taken), far below `retries` × 100 ms.
#[test]
fn the_retries_give_up_within_their_bound() {
    let (_dir, path, holder) = busy_executable("bounded", Duration::from_secs(30));
    let start = std::time::Instant::now();
    let err = Command::new(&path).retry_etxtbsy(3).status().unwrap_err();
    let took = start.elapsed();
    assert_eq!(err.raw_os_error(), Some(libc::ETXTBSY), "{err}");
    assert!(
        took >= Duration::from_millis(7),
        "the retries slept only {took:?}"
    );
    assert!(took < Duration::from_millis(300), "3 retries took {took:?}");
    drop(holder);
}

// ---- exec ----

/// Set in the re-executed copy that runs the exec check.
const EXEC_MARKER: &str = "SPAWNOPTS_EXEC_PDEATHSIG";

/// In a process of its own: `exec` with a parent-death signal. The process's parent is
/// alive, so it must run the program, not signal itself.
#[test]
fn exec_subprocess() {
    if std::env::var_os(EXEC_MARKER).is_none() {
        return;
    }
    let err = Command::new("sh")
        .args(["-c", "exit 7"])
        .parent_death_signal(libc::SIGTERM)
        .exec();
    panic!("exec failed: {err}");
}

#[test]
fn exec_watches_this_processs_parent() {
    let status = std::process::Command::new(own_exe())
        .args([
            "exec_subprocess",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(EXEC_MARKER, "1")
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(7), "{status:?}");
}

#[test]
fn exec_cannot_start_in_a_cgroup() {
    let err = Command::new("true")
        .cgroup(fs::File::open("/").unwrap())
        .exec();
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
}
