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
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};

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
    sleeper_running("sleep", strategy, nnp)
}

/// [`sleeper`] with `program` as its `sleep`.
fn sleeper_running(program: &str, strategy: Strategy, nnp: bool) -> Option<Child> {
    let mut c = Command::new(program);
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

/// The parent, in a re-executed copy: spawns `sleep 60` (or the program the spec names) with
/// the option, prints its pid, and waits to be killed. `spec`: `strategy:nnp[:program]`.
fn be_the_parent(spec: &str) {
    let mut parts = spec.splitn(3, ':');
    let strategy = strategy_named(parts.next().expect("strategy"));
    let nnp = parts.next() == Some("true");
    let child = sleeper_running(parts.next().unwrap_or("sleep"), strategy, nnp);
    match &child {
        Some(c) => println!("CHILD {}", c.id()),
        None => println!("CHILD none"),
    }
    std::thread::sleep(Duration::from_secs(60));
    drop(child);
}

/// Starts this test again as the parent (`PARENT` = `spec`; as nobody when `as_nobody`) and
/// reads the pid it prints: the parent, and its child's pid or `none` (clone3 refused).
fn start_parent(spec: &str, as_nobody: bool) -> io::Result<(std::process::Child, String)> {
    let name = std::thread::current()
        .name()
        .expect("a test name")
        .to_string();
    let mut cmd = std::process::Command::new(own_exe());
    cmd.args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(PARENT, spec)
        .stdout(std::process::Stdio::piped());
    if as_nobody {
        cmd.uid(NOBODY).gid(NOBODY);
    }
    let mut parent = cmd.spawn()?;
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
    Ok((parent, pid))
}

/// SIGKILLs the parent and checks that SIGKILL is what ended it (`what`: the case).
fn sigkill(mut parent: std::process::Child, what: &str) {
    parent.kill().expect("SIGKILL the parent");
    let status = parent.wait().expect("wait for the parent");
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{what}: {status:?}");
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
    let (mut parent, pid) = start_parent(&format!("{strategy}:{nnp}"), false).expect("the parent");
    if pid == "none" {
        let _ = parent.kill();
        let _ = parent.wait();
        return println!("skipped: clone3 refused here");
    }
    let fd = watch(pid.parse().expect("a pid"));
    assert!(!ends_within(&fd, 0), "{strategy}: the child ended early");
    sigkill(parent, &strategy.to_string());
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

/// The uid and gid a parent runs as when it must not be root.
const NOBODY: u32 = 65534;

/// A set-user-ID-root copy of `sleep` in a folder nobody can enter, or why there is none.
fn setuid_sleep() -> Result<(tempfile::TempDir, std::path::PathBuf), String> {
    use std::os::unix::fs::PermissionsExt as _;
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Err(String::from(
            "not root: no set-user-ID-root program can be made",
        ));
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
    let sleep = std::env::split_paths(&path)
        .map(|dir| dir.join("sleep"))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("no sleep on PATH ({path:?})"))?;
    let dir = tempfile::tempdir().map_err(|e| format!("a temporary folder: {e}"))?;
    let copy = dir.path().join("sleep");
    std::fs::copy(&sleep, &copy).map_err(|e| format!("copy {}: {e}", sleep.display()))?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
        .and_then(|()| std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o4755)))
        .map_err(|e| format!("chmod: {e}"))?;
    Ok((dir, copy))
}

/// The effective uid of `pid` once it runs `program`, from /proc, or why it cannot be read.
fn euid_after_exec(pid: &str, program: &std::path::Path) -> Result<u32, String> {
    let exe = format!("/proc/{pid}/exe");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while std::fs::read_link(&exe).ok().as_deref() != Some(program) {
        if std::time::Instant::now() > deadline {
            return Err(format!("{exe} never named {}", program.display()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("/proc/{pid}/status: {e}"))?;
    let uids = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .ok_or("no Uid: line")?;
    let euid = uids.split_whitespace().nth(1).ok_or("no effective uid")?;
    euid.parse().map_err(|e| format!("{euid}: {e}"))
}

/// Says why a test skips on stderr, past libtest's capture, so a guest's console log shows
/// it.
fn skip(why: &str) {
    use std::io::Write as _;
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("?");
    let _ = writeln!(std::io::stderr(), "skipped: {name}: {why}");
}

/// Across a set-user-ID exec (issue 31, item 5): a parent running as nobody spawns a child
/// that execs a set-user-ID-root `sleep`, and the parent is then SIGKILLed. (The child's own
/// `uid` would not do: setting ids needs a forked child, and `CLONE_PIDFD_AUTOKILL` clone3.)
/// With `no_new_privs` the exec gains nothing and the option holds under every strategy: by `CLONE_PIDFD_AUTOKILL` where
/// clone3 takes it (the kernel keeps it across every exec), by `PR_SET_PDEATHSIG` elsewhere
/// (no credential changed, so the kernel keeps it). Without `no_new_privs` the fallback's
/// documented weakness shows: the exec raises the effective uid, the kernel clears the
/// parent-death signal, and the child outlives its parent (it is killed here).
#[rstest]
#[case(Strategy::Auto, true)]
#[case(Strategy::Clone3, true)]
#[case(Strategy::CloneVfork, true)]
#[case(Strategy::Fork, true)]
#[case(Strategy::Fork, false)]
fn kill_on_parent_death_across_a_setuid_exec(#[case] strategy: Strategy, #[case] nnp: bool) {
    if let Ok(spec) = std::env::var(PARENT) {
        return be_the_parent(&spec);
    }
    let (_dir, program) = match setuid_sleep() {
        Ok(made) => made,
        Err(why) => return skip(&why),
    };
    let spec = format!("{strategy}:{nnp}:{}", program.display());
    let (parent, pid) = match start_parent(&spec, true) {
        Ok(started) => started,
        Err(e) => return skip(&format!("this test binary cannot run as nobody: {e}")),
    };
    let what = strategy.to_string();
    if pid == "none" {
        sigkill(parent, &what);
        return skip("clone3 refused here");
    }
    let fd = watch(pid.parse().expect("a pid"));
    let kill_child = || {
        // SAFETY: a signal to the child this test made (it may be gone already).
        unsafe { libc::kill(pid.parse().expect("a pid"), libc::SIGKILL) };
    };
    let euid = match euid_after_exec(&pid, &program) {
        Ok(euid) => euid,
        Err(why) => {
            sigkill(parent, &what);
            kill_child();
            return skip(&format!("the child's credentials cannot be read: {why}"));
        }
    };
    if nnp {
        assert_eq!(
            euid, NOBODY,
            "{strategy}: no_new_privs, yet the exec raised the uid"
        );
    } else if euid != 0 {
        sigkill(parent, &what);
        kill_child();
        return skip("the set-user-ID bit did not raise the uid (a nosuid mount?)");
    }
    assert!(!ends_within(&fd, 0), "{strategy}: the child ended early");
    sigkill(parent, &what);
    if nnp {
        assert!(
            ends_within(&fd, 10_000),
            "{strategy}: the child outlived its SIGKILLed parent after a set-user-ID exec"
        );
    } else {
        let outlived = !ends_within(&fd, 2_000);
        kill_child();
        assert!(
            outlived,
            "{strategy}: the parent-death signal held across a set-user-ID exec: the docs \
             (Command::kill_on_parent_death) say the kernel clears it"
        );
    }
}
