//! What the adapter tests share: a re-executed copy of this binary for a test that changes
//! process-wide state, and the check that no child of this process is left.

#[cfg(target_os = "linux")]
pub mod refuse_pidfd;

/// Set in the re-executed copy to the name of the test whose body it runs.
const MARKER: &str = "SPAWNMATRIX_ASYNC_SUBPROCESS";

/// Runs `body` in a re-executed copy of this binary, alone (for a seccomp filter, or a check
/// that this process has no child at all).
pub fn isolated(test: &str, body: impl FnOnce()) {
    if std::env::var(MARKER).as_deref() == Ok(test) {
        body();
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(MARKER, test)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!(
        "--- {test} in a sub-process ---\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{test} failed in its sub-process");
    assert!(
        stdout.contains("1 passed"),
        "the sub-process did not run {test}"
    );
}

/// What this process's children are: none at all (every one reaped), some still running, or
/// the pid of one that exited and nobody reaped (a zombie). Reaps nothing (`WNOWAIT`).
#[derive(Debug, PartialEq, Eq)]
pub enum Children {
    None,
    Running,
    Zombie(libc::pid_t),
}

pub fn children() -> Children {
    // SAFETY: an all-zero siginfo is valid; waitid fills it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid writes into `info`; WNOWAIT leaves any zombie in place.
    let rc = unsafe {
        libc::waitid(
            libc::P_ALL,
            0,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if rc == -1 {
        let e = std::io::Error::last_os_error();
        assert_eq!(e.raw_os_error(), Some(libc::ECHILD), "waitid: {e}");
        return Children::None;
    }
    // SAFETY: filled by a successful waitid; si_pid is 0 when no child has exited.
    match unsafe { info.si_pid() } {
        0 => Children::Running,
        pid => Children::Zombie(pid),
    }
}
