//! What the adapter tests share: the suite-wide helpers (`spawn/tests/support/`), and the
//! check that no child of this process is left.

#[cfg(target_os = "linux")]
pub mod refuse_pidfd;
#[cfg(target_os = "linux")]
#[path = "../../support/seccomp.rs"]
mod seccomp;

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

/// A fresh temporary directory and the path of a file `name` in it, which a test program
/// writes to show it ran. The directory lives as long as the returned guard.
pub fn marker(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

/// A current-thread tokio runtime with I/O, the one the adapter needs.
#[cfg(feature = "tokio")]
pub fn io_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap()
}

/// Checks that `fd`, a child's exit fd, is the pidfd of process `id` (its fdinfo `Pid:`).
/// Skips, printing why, where there is no `/proc/self/fdinfo`.
#[cfg(target_os = "linux")]
pub fn assert_pidfd_names(fd: std::os::fd::RawFd, id: u32) {
    let info = match std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")) {
        Ok(i) => i,
        Err(e) => return println!("skipped: no /proc/self/fdinfo: {e}"),
    };
    let pid = info.lines().find_map(|l| l.strip_prefix("Pid:"));
    assert_eq!(pid.map(str::trim), Some(id.to_string().as_str()), "{info}");
}

/// The `into_stdio` check both adapters share. `flags(true)` hands a first child's piped
/// stdout (which echoed `handed on`) to a next child through `into_stdio`, `flags(false)`
/// through the raw non-blocking end; each gives what `next_childs_stdin_flags` read. The
/// first must be blocking, the second not, which shows the check can see `O_NONBLOCK`.
pub fn assert_into_stdio_is_blocking(flags: impl Fn(bool) -> Option<(libc::c_int, String)>) {
    let Some((on, text)) = flags(true) else {
        return;
    };
    assert_eq!(
        on & libc::O_NONBLOCK,
        0,
        "the next child's stdin is non-blocking"
    );
    assert_eq!(text, "handed on\n");
    let (off, _) = flags(false).unwrap();
    assert_ne!(off & libc::O_NONBLOCK, 0, "the check cannot see O_NONBLOCK");
}
