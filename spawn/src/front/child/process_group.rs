//! Killing a child's process group without ever reaching another group. A group's id is its
//! leader's pid; once the leader is reaped and the last member gone, the kernel may hand that
//! number to a new process, which may lead a group of its own. So a group is signalled only
//! while the leader is unreaped (running or a zombie): a zombie still holds its pid, so the
//! id cannot be reused under it. Whether the pid is still our unreaped child is asked with
//! `waitid(WNOWAIT)`, which looks without reaping.

use std::io;

use crate::platform::errno::check;

/// Cygwin has no `waitid` (the libc crate declares none there): with no way to look at a
/// child without reaping it, the group is never signalled, so an unrelated group is never hit.
#[cfg(target_os = "cygwin")]
fn peek(_pid: libc::pid_t, _extra: libc::c_int) -> io::Result<bool> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "killing a process group needs waitid(WNOWAIT), which Cygwin lacks",
    ))
}

/// `waitid(P_PID, pid, WEXITED | extra | WNOWAIT)`, retried on `EINTR`: `Ok(true)` when it
/// found the child exited (a zombie), `Ok(false)` when `WNOHANG` found it running, and
/// `ECHILD` once it is no unreaped child of this process.
#[cfg(not(target_os = "cygwin"))]
// id_t is wider than pid_t on FreeBSD (infallible there), the same width elsewhere.
#[allow(clippy::unnecessary_fallible_conversions)]
fn peek(pid: libc::pid_t, extra: libc::c_int) -> io::Result<bool> {
    let id = libc::id_t::try_from(pid).map_err(|_| io::Error::from_raw_os_error(libc::ECHILD))?;
    loop {
        // SAFETY: an all-zero siginfo is valid; waitid fills it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid writes into `info` only; WNOWAIT leaves the child unreaped.
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                id,
                &mut info,
                libc::WEXITED | libc::WNOWAIT | extra,
            )
        };
        match check(rc) {
            // SAFETY: filled by waitid; si_pid is 0 when WNOHANG found no exited child.
            Ok(_) => return Ok(unsafe { info.si_pid() } != 0),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Whether `pid` is still an unreaped child of this process (running or a zombie), so its
/// group id cannot have been reused.
pub(crate) fn still_held(pid: libc::pid_t) -> io::Result<bool> {
    match peek(pid, libc::WNOHANG) {
        Ok(_) => Ok(true),
        Err(e) if e.raw_os_error() == Some(libc::ECHILD) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Blocks until the child `pid` has exited, leaving it a zombie (so its group id stays taken).
pub(crate) fn wait_exited(pid: libc::pid_t) -> io::Result<()> {
    peek(pid, 0).map(drop)
}

/// `SIGKILL` to the group `pgid`; a group with no member left is `Ok`.
pub(crate) fn kill(pgid: libc::pid_t) -> io::Result<()> {
    // SAFETY: kill with the negated id of a group whose leader the caller holds unreaped.
    match check(unsafe { libc::kill(-pgid, libc::SIGKILL) }) {
        Err(e) if e.raw_os_error() == Some(libc::ESRCH) => Ok(()),
        r => r.map(drop),
    }
}

/// The error for a group that may no longer be the child's.
pub(crate) fn released() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "the child's process group id is no longer held: the child has been reaped, so the id may be another group's",
    )
}

/// The error for a child that does not lead a group of its own.
pub(crate) fn not_a_leader() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "the child does not lead its own process group (spawn it with process_group(0), setsid or controlling_terminal)",
    )
}
