//! Reaping a child by pid and judging its exit status.

use std::io;

use super::BenchError;

/// Waits for `pid` (retrying on EINTR) and requires exit status 0.
pub fn reap(method: &str, pid: libc::pid_t) -> Result<(), BenchError> {
    let mut status = 0;
    loop {
        // SAFETY: `status` is writable; `pid` is our own child.
        let rc = unsafe { libc::waitpid(pid, &mut status, 0) };
        if rc == pid {
            break;
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(BenchError::Wait {
                method: method.to_string(),
                source: err,
            });
        }
    }
    check_status(method, status)
}

/// Exit status 0 is success; anything else names what happened.
pub fn check_status(method: &str, status: libc::c_int) -> Result<(), BenchError> {
    let failed = |status: String| BenchError::ChildFailed {
        method: method.to_string(),
        status,
    };
    if libc::WIFEXITED(status) {
        match libc::WEXITSTATUS(status) {
            0 => Ok(()),
            127 => Err(failed("exit 127: it could not exec".to_string())),
            code => Err(failed(format!("exit {code}"))),
        }
    } else if libc::WIFSIGNALED(status) {
        Err(failed(format!(
            "killed by signal {}",
            libc::WTERMSIG(status)
        )))
    } else {
        Err(failed(format!("wait status {status:#x}")))
    }
}
