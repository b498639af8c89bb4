//! Whether a process still runs or has been reaped, seen from outside (`kill(pid, 0)`, and
//! the process state from `/proc` on Linux or `ps` elsewhere).
#![allow(dead_code)] // Each test file uses some.

use std::time::{Duration, Instant};

/// Whether `pid` is gone or a zombie nobody reaped (a container's init may reap nothing).
pub fn gone(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks.
    if unsafe { libc::kill(pid, 0) } == -1 {
        return true;
    }
    is_zombie(pid)
}

/// The process state letter is `Z` (from `/proc` on Linux, where a container may lack `ps`).
/// Without `/proc` mounted (a bare root), a child of ours is asked with `waitid(WNOWAIT)`,
/// which leaves it unreaped; anyone else's process is taken as running (it answered
/// `kill(pid, 0)`), so a test that needs it gone fails rather than passes unseen.
#[cfg(target_os = "linux")]
fn is_zombie(pid: libc::pid_t) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => s
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) if std::fs::metadata("/proc/self").is_err() => child_is_zombie(pid),
        Err(_) => true,
    }
}

/// Whether our child `pid` has ended and waits to be reaped (false when it runs or is not ours).
#[cfg(target_os = "linux")]
fn child_is_zombie(pid: libc::pid_t) -> bool {
    // SAFETY: a zeroed siginfo_t is valid; waitid fills it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: info is a valid out-pointer; WNOWAIT leaves the child as it is.
    if unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) } == -1 {
        return false;
    }
    // SAFETY: waitid filled the SIGCHLD fields (si_pid 0: no child has changed state).
    unsafe { info.si_pid() != 0 }
}

/// The process state is `Z` (macOS and the BSDs: `ps`, as `/proc` is absent or unmounted).
#[cfg(not(target_os = "linux"))]
fn is_zombie(pid: libc::pid_t) -> bool {
    std::process::Command::new("ps")
        .args(["-o", "stat=", "-p", &pid.to_string()])
        .output()
        .map(|o| {
            let state = String::from_utf8_lossy(&o.stdout);
            state.trim().is_empty() || state.trim_start().starts_with('Z')
        })
        .unwrap_or(true)
}

/// Waits up to 10 s for `pid` to be gone.
pub fn goes(pid: libc::pid_t) -> bool {
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        if gone(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// Whether `pid` has been reaped (by anyone): only then does `kill(pid, 0)` say `ESRCH`
/// (a zombie still answers). Waits up to 10 s.
pub fn reaped_soon(pid: libc::pid_t) -> bool {
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        // SAFETY: signal 0 only checks.
        if unsafe { libc::kill(pid, 0) } == -1
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
        {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}
