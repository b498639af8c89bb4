//! A finished child's status, and the captured output of `Command::output`.

use std::fmt;
use std::os::unix::process::ExitStatusExt;

/// How a child ended: the raw `waitpid` status. Mirrors `std::process::ExitStatus`.
///
/// ```
/// use spawnmatrix_spawn::Command;
///
/// let status = Command::new("sh").args(["-c", "exit 3"]).status()?;
/// assert_eq!((status.success(), status.code(), status.signal()), (false, Some(3), None));
/// assert_eq!(status.to_string(), "exit status: 3");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitStatus(pub(super) libc::c_int);

impl ExitStatus {
    /// A status from a raw `waitpid` status word.
    pub fn from_raw(raw: libc::c_int) -> ExitStatus {
        ExitStatus(raw)
    }

    /// The raw `waitpid` status word.
    pub fn into_raw(self) -> libc::c_int {
        self.0
    }

    /// Exited with code 0.
    pub fn success(self) -> bool {
        self.code() == Some(0)
    }

    /// The exit code, if the child exited.
    pub fn code(self) -> Option<i32> {
        libc::WIFEXITED(self.0).then(|| libc::WEXITSTATUS(self.0))
    }

    /// The signal that killed the child, if one did.
    pub fn signal(self) -> Option<i32> {
        libc::WIFSIGNALED(self.0).then(|| libc::WTERMSIG(self.0))
    }

    /// Whether the child was killed and dumped core.
    pub fn core_dumped(self) -> bool {
        libc::WIFSIGNALED(self.0) && libc::WCOREDUMP(self.0)
    }
}

impl From<ExitStatus> for std::process::ExitStatus {
    fn from(s: ExitStatus) -> Self {
        std::process::ExitStatus::from_raw(s.0)
    }
}

impl fmt::Display for ExitStatus {
    /// The same text as `std::process::ExitStatus`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&std::process::ExitStatus::from(*self), f)
    }
}

/// The result of `Command::output`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// How the child ended.
    pub status: ExitStatus,
    /// What it wrote to stdout (empty unless stdout was piped, the default for `output`).
    pub stdout: Vec<u8>,
    /// What it wrote to stderr (empty unless stderr was piped, the default for `output`).
    pub stderr: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(0, Some(0), None, true)]
    #[case(3 << 8, Some(3), None, false)]
    #[case(libc::SIGKILL, None, Some(libc::SIGKILL), false)]
    #[case(libc::SIGSEGV | 0x80, None, Some(libc::SIGSEGV), false)]
    fn decodes_wait_status(
        #[case] raw: i32,
        #[case] code: Option<i32>,
        #[case] signal: Option<i32>,
        #[case] success: bool,
    ) {
        let s = ExitStatus::from_raw(raw);
        assert_eq!(s.code(), code);
        assert_eq!(s.signal(), signal);
        assert_eq!(s.success(), success);
        assert_eq!(s.core_dumped(), raw & 0x80 != 0);
        assert_eq!(
            s.to_string(),
            std::process::ExitStatus::from_raw(raw).to_string()
        );
    }
}
