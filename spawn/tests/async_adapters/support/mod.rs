//! What the adapter tests share: the suite-wide helpers (`spawn/tests/support/`), and the
//! check that no child of this process is left.

#[cfg(target_os = "linux")]
pub mod refuse_pidfd;

#[path = "../../support/isolated.rs"]
mod isolated;
#[path = "../../support/procs.rs"]
pub mod procs;

pub use isolated::isolated;

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
