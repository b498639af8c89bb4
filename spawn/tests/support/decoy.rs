//! A decoy process on a freed pid (Linux, root: `/proc/sys/kernel/ns_last_pid` picks the next
//! pid), so a signal, pidfd or group kill that went by a stale pid would hit it.

/// A `sleep` that took `pid` (and leads a process group of that id when `own_group`), if
/// this process may choose the next pid. Where it may but another process takes the pid
/// first every time (a parallel test's spawns, a loaded emulator), the checks run without a
/// decoy after 1000 tries, and stderr says so: a lost race is no finding about the library.
pub fn decoy_at(pid: libc::pid_t, own_group: bool) -> Option<std::process::Child> {
    use std::os::unix::process::CommandExt as _;
    for _ in 0..1000 {
        let w = std::fs::write("/proc/sys/kernel/ns_last_pid", (pid - 1).to_string());
        if let Err(e) = w {
            println!("no decoy (ns_last_pid: {e}): the checks run without pid reuse");
            return None;
        }
        let mut c = std::process::Command::new("sleep");
        c.arg("100");
        if own_group {
            c.process_group(0);
        }
        let mut d = c.spawn().unwrap();
        if d.id() == pid as u32 {
            return Some(d);
        }
        let _ = d.kill();
        let _ = d.wait();
    }
    eprintln!("no decoy: pid {pid} was taken by another process in 1000 tries; the checks run without pid reuse");
    None
}

/// Whether nothing signalled the decoy: it is ended with `SIGTERM` now, and a `SIGKILL`
/// sent before (through a reused pid or group id) would have won.
pub fn untouched(decoy: Option<std::process::Child>) -> bool {
    use std::os::unix::process::ExitStatusExt as _;
    let Some(mut d) = decoy else {
        return true;
    };
    // SAFETY: signals our own unreaped child.
    unsafe { libc::kill(d.id() as libc::pid_t, libc::SIGTERM) };
    d.wait().unwrap().signal() == Some(libc::SIGTERM)
}
