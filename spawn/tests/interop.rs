//! Interoperation with std and the child's lifecycle: `From<std::process::Stdio>`,
//! `Command::from_std`, `kill_on_drop`, `Child::kill_process_group`, `Child::wait_timeout`.

use std::io::{self, Read};
use std::os::unix::process::CommandExt as _;
use std::time::{Duration, Instant};

use rstest::rstest;
use spawnmatrix_spawn::os::unix::process::{CommandExt, ExitStatusExt};
use spawnmatrix_spawn::{Command, Stdio, Strategy};

#[path = "support/procs.rs"]
mod procs;
use procs::{goes, gone, reaped_soon};

// ---- From<std::process::Stdio> ----

#[test]
fn std_stdio_kinds_carry_over() {
    let out = Command::new("sh")
        .args(["-c", "cat; echo out; echo err >&2"])
        .stdin(Stdio::from(std::process::Stdio::null()))
        .stdout(Stdio::from(std::process::Stdio::piped()))
        .stderr(Stdio::from(std::process::Stdio::piped()))
        .output()
        .expect("output");
    assert_eq!(
        (&out.stdout[..], &out.stderr[..]),
        (&b"out\n"[..], &b"err\n"[..])
    );
}

#[test]
fn a_std_stdio_made_from_a_file_is_that_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("out");
    let file = std::fs::File::create(&path).expect("create");
    let status = Command::new("echo")
        .arg("into the file")
        .stdout(Stdio::from(std::process::Stdio::from(file)))
        .status()
        .expect("status");
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "into the file\n");
}

#[test]
fn std_inherit_and_stderr_carry_over() {
    let status = Command::new("true")
        .stdin(Stdio::from(std::process::Stdio::inherit()))
        .stdout(Stdio::from(std::process::Stdio::from(io::stderr())))
        .status()
        .expect("status");
    assert!(status.success());
}

// ---- Command::from_std ----

#[test]
fn from_std_carries_program_args_env_and_cwd() {
    std::env::set_var("SPAWNOPTS_REMOVED", "still here");
    let mut std_cmd = std::process::Command::new("sh");
    std_cmd
        .args(["-c", "echo \"$A|${SPAWNOPTS_REMOVED-unset}\"; pwd"])
        .env("A", "set")
        .env_remove("SPAWNOPTS_REMOVED")
        .current_dir("/");
    let mut cmd = Command::from_std(&std_cmd).expect("from_std");
    assert_eq!(cmd.get_program(), "sh");
    let out = cmd.output().expect("output");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "set|unset\n/\n");
}

#[test]
fn from_std_carries_env_clear() {
    let mut std_cmd = std::process::Command::new("/usr/bin/env");
    std_cmd.env_clear().env("ONLY", "this");
    let out = Command::from_std(&std_cmd)
        .expect("from_std")
        .output()
        .expect("output");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ONLY=this\n");
}

#[test]
fn from_std_carries_stdio_and_process_group() {
    let mut std_cmd = std::process::Command::new("sh");
    // The child waits for its stdin to close, so its group can be read while it runs.
    std_cmd
        .args(["-c", "read _ignored; echo done"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .process_group(0);
    let mut child = Command::from_std(&std_cmd)
        .expect("from_std")
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    // SAFETY: getpgid of our own unreaped child.
    let pgid = unsafe { libc::getpgid(pid) };
    drop(child.stdin.take().expect("stdin carried over as a pipe"));
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout carried over as a pipe")
        .read_to_string(&mut out)
        .unwrap();
    child.wait().unwrap();
    assert_eq!(pgid, pid, "the child leads its own group");
    assert_eq!(out, "done\n");
}

#[test]
fn from_std_names_what_it_cannot_carry() {
    let mut std_cmd = std::process::Command::new("sh");
    std_cmd.arg0("not-sh");
    let err = Command::from_std(&std_cmd).expect_err("arg0 cannot be carried");
    assert_eq!(err.what, "arg0", "{err}");
    assert!(err.to_string().contains("arg0"));
}

// ---- kill_on_drop, kill_process_group, wait_timeout ----

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[cfg_attr(target_os = "linux", case(Strategy::CloneVfork))]
fn kill_on_drop_kills_and_reaps(#[case] strategy: Strategy) {
    let child = Command::new("sleep")
        .arg("30")
        .kill_on_drop(true)
        .strategy(strategy)
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    drop(child);
    // Reaped at the drop or soon after by the reaper thread: no zombie is left.
    assert!(
        reaped_soon(pid),
        "{strategy}: the dropped child was not reaped"
    );
    assert!(gone(pid), "{strategy}: the dropped child still runs");
}

#[test]
fn without_kill_on_drop_a_dropped_child_runs_on() {
    let child = Command::new("sleep").arg("30").spawn().expect("spawn");
    let pid = child.id() as libc::pid_t;
    drop(child);
    assert!(!gone(pid), "std's behaviour: dropping does not kill");
    // SAFETY: our unreaped child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
}

#[rstest]
#[case::process_group(false)]
#[case::setsid(true)]
fn kill_process_group_kills_the_grandchildren(#[case] setsid: bool) {
    let mut c = Command::new("sh");
    c.args(["-c", "sleep 30 & echo $!; wait"])
        .stdout(Stdio::piped());
    if setsid {
        c.setsid(true);
    } else {
        c.process_group(0);
    }
    let mut child = c.spawn().expect("spawn");
    let mut line = String::new();
    let mut out = child.stdout.take().expect("piped");
    let mut byte = [0u8];
    while out.read(&mut byte).expect("read") == 1 && byte[0] != b'\n' {
        line.push(byte[0] as char);
    }
    let grandchild: libc::pid_t = line.trim().parse().expect("the grandchild's pid");
    child.kill_process_group().expect("kill the group");
    assert_eq!(child.wait().expect("wait").signal(), Some(libc::SIGKILL));
    assert!(
        goes(grandchild),
        "the grandchild in the group was killed too"
    );
}

#[test]
fn kill_process_group_refuses_a_child_in_our_group() {
    let mut child = Command::new("sleep").arg("30").spawn().expect("spawn");
    let err = child.kill_process_group().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[rstest]
#[case::taken_at_spawn(true)]
#[case::opened_later(false)]
fn wait_timeout_times_out_and_then_sees_the_exit(#[case] exit_fd: bool) {
    let mut child = Command::new("sleep")
        .arg("30")
        .exit_fd(exit_fd)
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    assert!(child
        .wait_timeout(Duration::from_millis(200))
        .unwrap()
        .is_none());
    let waited = start.elapsed();
    assert!(
        waited >= Duration::from_millis(200),
        "returned early: {waited:?}"
    );
    child.kill().unwrap();
    let start = Instant::now();
    let status = child.wait_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(status.and_then(|s| s.signal()), Some(libc::SIGKILL));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // A reaped child answers at once.
    assert!(child.wait_timeout(Duration::ZERO).unwrap().is_some());
}

/// Stdin stays open across a `wait_timeout` that times out (as with `try_wait`): the child
/// still reads what is written afterwards.
#[test]
fn wait_timeout_leaves_stdin_open() {
    use std::io::Write;
    let mut child = Command::new("head")
        .args(["-c", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    assert!(child
        .wait_timeout(Duration::from_millis(50))
        .unwrap()
        .is_none());
    child
        .stdin
        .as_mut()
        .expect("stdin kept")
        .write_all(b"abc")
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.stdout, b"abc");
}

#[test]
fn wait_timeout_wakes_when_the_child_exits() {
    let mut child = Command::new("sleep").arg("0.2").spawn().expect("spawn");
    let start = Instant::now();
    let status = child.wait_timeout(Duration::from_secs(20)).unwrap();
    assert!(status.is_some_and(|s| s.success()));
    // Woken by the exit, not by the timeout (50 ms is the longest backoff step).
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn debug_shows_the_new_settings_only_when_set() {
    let plain = format!("{:#?}", Command::new("true"));
    for name in [
        "parent_death_signal",
        "retry_etxtbsy",
        "kill_on_drop",
        "cgroup",
    ] {
        assert!(!plain.contains(name), "{plain}");
    }
    let mut c = Command::new("true");
    c.parent_death_signal(libc::SIGTERM)
        .retry_etxtbsy(3)
        .kill_on_drop(true)
        .cgroup(std::fs::File::open("/").unwrap());
    let set = format!("{c:#?}");
    for want in [
        format!("parent_death_signal: {}", libc::SIGTERM),
        "retry_etxtbsy: 3".into(),
        "kill_on_drop: true".into(),
        "cgroup: OwnedFd".into(),
    ] {
        assert!(set.contains(&want), "{want} in {set}");
    }
}
