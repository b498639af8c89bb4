//! A finished child's status, and the captured output of `Command::output`.

use std::fmt;
use std::os::unix::process::ExitStatusExt as _;

/// How a child ended: the raw `waitpid` status. Mirrors `std::process::ExitStatus`; the
/// signal, core dump and raw word are in [`ExitStatusExt`](crate::interop::os::unix::process::ExitStatusExt),
/// as in std. `Default` is "exited 0", as in std.
///
/// ```
/// use spawnmatrix_spawn::os::unix::process::ExitStatusExt;
/// use spawnmatrix_spawn::Command;
///
/// let status = Command::new("sh").args(["-c", "exit 3"]).status()?;
/// assert_eq!((status.success(), status.code(), status.signal()), (false, Some(3), None));
/// assert_eq!(status.to_string(), "exit status: 3");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExitStatus(pub(crate) libc::c_int);

impl ExitStatus {
    /// Exited with code 0.
    pub fn success(self) -> bool {
        self.code() == Some(0)
    }

    /// The exit code, if the child exited.
    pub fn code(self) -> Option<i32> {
        libc::WIFEXITED(self.0).then(|| libc::WEXITSTATUS(self.0))
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
    use crate::interop::os::unix::process::ExitStatusExt;
    use super::*;
    use rstest::rstest;

    /// Every view of a status word agrees with std's, stopped and continued included.
    #[rstest]
    #[case(0, Some(0), None, true)]
    #[case(3 << 8, Some(3), None, false)]
    #[case(libc::SIGKILL, None, Some(libc::SIGKILL), false)]
    #[case(libc::SIGSEGV | 0x80, None, Some(libc::SIGSEGV), false)]
    #[case((libc::SIGSTOP << 8) | 0x7f, None, None, false)]
    #[case(0xffff, None, None, false)]
    fn decodes_wait_status(
        #[case] raw: i32,
        #[case] code: Option<i32>,
        #[case] signal: Option<i32>,
        #[case] success: bool,
    ) {
        use std::os::unix::process::ExitStatusExt as StdExt;
        let s = ExitStatus::from_raw(raw);
        let std_s = std::process::ExitStatus::from_raw(raw);
        assert_eq!(s.code(), code);
        assert_eq!(s.signal(), signal);
        assert_eq!(s.success(), success);
        assert_eq!(s.core_dumped(), raw & 0x80 != 0 && signal.is_some());
        assert_eq!(s.to_string(), std_s.to_string());
        assert_eq!(s.stopped_signal(), StdExt::stopped_signal(&std_s));
        assert_eq!(s.continued(), StdExt::continued(&std_s));
        assert_eq!(s.into_raw(), StdExt::into_raw(std_s));
    }

    #[test]
    fn default_is_exit_zero_like_std() {
        let d = ExitStatus::default();
        assert_eq!(
            d.to_string(),
            std::process::ExitStatus::default().to_string()
        );
        assert!(d.success());
    }
}
