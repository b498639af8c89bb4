//! Children that end early or are left alone, with the behaviour `spawn::Child` documents
//! (it mirrors `std::process::Child`): `kill` sends SIGKILL, a closed pipe is an error on the
//! parent's side (never a SIGPIPE death), and dropping a `Child` neither kills nor reaps it.

use std::io::{ErrorKind, Read, Write};
use std::time::Duration;

use spawnmatrix::spawn::os::unix::process::ExitStatusExt;
use spawnmatrix::spawn::{Command, Stdio};

use super::strategies::each;

fn helper() -> std::path::PathBuf {
    spawnmatrix::child::helper_path().expect("child helper")
}

#[test]
fn a_child_killed_at_once_reports_sigkill() {
    each(|strategy| {
        let mut child = Command::new(helper())
            .args(["--sleep-ms", "10000"])
            .stdout(Stdio::null())
            .strategy(strategy)
            .spawn()
            .expect("spawn");
        child.kill().expect("kill");
        let status = child.wait().expect("wait");
        assert_eq!(
            status.signal(),
            Some(libc::SIGKILL),
            "{strategy}: {status:?}"
        );
        // Documented: killing a child that was already waited for is a no-op, not ESRCH.
        child.kill().expect("kill after wait");
        assert_eq!(
            child.try_wait().expect("try_wait"),
            Some(status),
            "{strategy}"
        );
    });
}

#[test]
fn a_child_that_closes_its_pipes_early() {
    each(|strategy| {
        let mut child = Command::new(helper())
            .args(["--exit", "3"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .strategy(strategy)
            .spawn()
            .expect("spawn");
        let mut report = String::new();
        let mut out = child.stdout.take().expect("stdout pipe");
        out.read_to_string(&mut report).expect("read to EOF");
        let mut stdin = child.stdin.take().expect("stdin pipe");
        // The child has exited: its read end is gone, so a large write fails with EPIPE.
        let wrote = stdin.write_all(&vec![b'x'; 1 << 20]);
        assert_eq!(
            wrote.as_ref().map_err(|e| e.kind()),
            Err(ErrorKind::BrokenPipe),
            "{strategy}: writing to a child that closed stdin"
        );
        let status = child.wait().expect("wait");
        assert_eq!(status.code(), Some(3), "{strategy}");
        assert!(
            report.contains("\"pid\""),
            "{strategy}: the report before EOF: {report:?}"
        );
    });
}

#[test]
fn a_dropped_child_keeps_running_and_stays_reapable() {
    each(|strategy| {
        let child = Command::new(helper())
            .args(["--sleep-ms", "300", "--exit", "5"])
            .stdout(Stdio::null())
            .strategy(strategy)
            .spawn()
            .expect("spawn");
        let pid = child.id() as libc::pid_t;
        drop(child);
        // SAFETY: signal 0 only checks that the process exists.
        assert_eq!(
            unsafe { libc::kill(pid, 0) },
            0,
            "{strategy}: dropping the Child killed it"
        );
        std::thread::sleep(Duration::from_millis(50));
        let status = spawnmatrix::fuzz::reap(pid).expect("the dropped child is still ours to reap");
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 5,
            "{strategy}: {status:#x}"
        );
    });
}
