//! Reaping a child: `waitpid` retried on `EINTR`, and the two ways a spawn that failed after
//! creating its child leaves no process or zombie behind.

use std::io;

use super::errno::check;

/// `waitpid(pid, options)`, retried on `EINTR`: the raw status word, or `None` if `WNOHANG`
/// found it still running.
pub(crate) fn wait_pid(pid: libc::pid_t, options: libc::c_int) -> io::Result<Option<libc::c_int>> {
    let mut raw = 0;
    loop {
        // SAFETY: waitpid writes the status word into `raw`.
        match check(unsafe { libc::waitpid(pid, &mut raw, options) }) {
            Ok(0) => return Ok(None),
            Ok(_) => return Ok(Some(raw)),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Kills and reaps a child that started although its spawn is reported as failed (`e`), so
/// no process or zombie is left behind.
pub(crate) fn abandon(pid: libc::pid_t, e: io::Error) -> io::Error {
    // SAFETY: a child of ours that nobody has reaped. Failure (ESRCH) means it is gone.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let _ = wait_pid(pid, 0);
    e
}

/// Reaps a child that failed before exec and returns the errno it reported.
pub(crate) fn reap_failed(pid: libc::pid_t, errno: libc::c_int) -> io::Error {
    // Its errno is the error worth reporting; a failed reap (ECHILD if someone else's
    // waitpid(-1) took it) leaves nothing behind to clean up.
    let _ = wait_pid(pid, 0);
    io::Error::from_raw_os_error(errno)
}
