//! What the adapter tests share: the suite-wide helpers (`spawn/tests/support/`), and the
//! check that no child of this process is left.

#[cfg(target_os = "linux")]
pub mod refuse_pidfd;

#[cfg(target_os = "linux")]
#[path = "../../support/decoy.rs"]
pub mod decoy;
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

/// The open-file flags of the stdin a child gets from `stdin` (read by the child itself from
/// `/proc/self/fdinfo/0`, in octal), and what it read from that stdin. `None`, with a
/// printed reason, where there is no `/proc/self/fdinfo`.
pub fn next_childs_stdin_flags(stdin: spawnmatrix_spawn::Stdio) -> Option<(libc::c_int, String)> {
    // portable-path: checks whether the path exists and skips with a reason
    if !std::path::Path::new("/proc/self/fdinfo/0").exists() {
        // portable-path: a message
        println!("skipped: no /proc/self/fdinfo to read a child's stdin flags from");
        return None;
    }
    let out = spawnmatrix_spawn::Command::new("sh")
        // portable-path: run only once /proc/self/fdinfo/0 is seen to exist
        .args(["-c", "grep '^flags:' /proc/self/fdinfo/0; cat"])
        .stdin(stdin)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let octal = first.strip_prefix("flags:").unwrap().trim();
    Some((
        libc::c_int::from_str_radix(octal, 8).unwrap(),
        rest.to_string(),
    ))
}
