//! A pidfd for a child (Linux 5.3+): `pidfd_open(2)` on the pid right after the spawn. The
//! child is ours and not yet reaped, so its pid cannot have been reused: the pidfd refers to
//! it, whichever strategy made it. The fd is close-on-exec (pidfds always are).

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};

use super::status::ExitStatus;

/// A pidfd for `pid`, which must be an unreaped child of this process.
pub(super) fn open(pid: libc::pid_t) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0 as libc::c_uint) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = libc::c_int::try_from(fd).map_err(|_| io::Error::other("pidfd out of range"))?;
    // SAFETY: a new fd nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// A process fd: refers to one process for as long as it is open, so a signal sent through it
/// can never reach a process that reused the pid. Polls readable once the process has
/// exited. Mirrors `std::os::linux::process::PidFd`.
#[derive(Debug)]
pub struct PidFd(pub(super) OwnedFd);

impl PidFd {
    /// Sends `SIGKILL` (`pidfd_send_signal`).
    pub fn kill(&self) -> io::Result<()> {
        self.send_signal(libc::SIGKILL)
    }

    /// Sends `signal` to the process (`pidfd_send_signal`, Linux 5.1+).
    pub fn send_signal(&self, signal: i32) -> io::Result<()> {
        // SAFETY: a pidfd we own, a signal number and no siginfo.
        let rc = unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                self.0.as_raw_fd(),
                signal,
                std::ptr::null::<libc::siginfo_t>(),
                0 as libc::c_uint,
            )
        };
        if rc == -1 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    /// Waits for the process to exit and reaps it (`waitid(P_PIDFD)`, Linux 5.4+). The
    /// `Child` it came from cannot wait for it afterwards (`ECHILD`).
    pub fn wait(&self) -> io::Result<ExitStatus> {
        self.waitid(libc::WEXITED)?
            .ok_or_else(|| io::Error::other("waitid without WNOHANG found no status"))
    }

    /// The status if the process has exited (reaping it), without blocking.
    pub fn try_wait(&self) -> io::Result<Option<ExitStatus>> {
        self.waitid(libc::WEXITED | libc::WNOHANG)
    }

    fn waitid(&self, options: libc::c_int) -> io::Result<Option<ExitStatus>> {
        let id =
            libc::id_t::try_from(self.0.as_raw_fd()).map_err(|_| io::Error::other("bad fd"))?;
        loop {
            // SAFETY: an all-zero siginfo is valid; waitid fills it.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: waitid writes into `info`.
            if unsafe { libc::waitid(libc::P_PIDFD, id, &mut info, options) } == -1 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            }
            // SAFETY: waitid filled `info`; si_pid is 0 when WNOHANG found nothing.
            if unsafe { info.si_pid() } == 0 {
                return Ok(None);
            }
            return Ok(Some(status_of(&info)));
        }
    }
}

/// The `waitpid` status word a `waitid` result stands for.
fn status_of(info: &libc::siginfo_t) -> ExitStatus {
    // SAFETY: filled by a successful waitid for an exited, killed or dumped child.
    let (code, status) = unsafe { (info.si_code, info.si_status()) };
    ExitStatus(match code {
        libc::CLD_EXITED => (status & 0xff) << 8,
        libc::CLD_DUMPED => (status & 0x7f) | 0x80,
        _ => status & 0x7f,
    })
}

impl AsRawFd for PidFd {
    fn as_raw_fd(&self) -> RawFd {
        self.0.as_raw_fd()
    }
}

impl AsFd for PidFd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.0.as_fd()
    }
}

impl FromRawFd for PidFd {
    unsafe fn from_raw_fd(fd: RawFd) -> Self {
        PidFd(OwnedFd::from_raw_fd(fd))
    }
}

impl IntoRawFd for PidFd {
    fn into_raw_fd(self) -> RawFd {
        self.0.into_raw_fd()
    }
}

impl From<OwnedFd> for PidFd {
    fn from(fd: OwnedFd) -> Self {
        PidFd(fd)
    }
}

impl From<PidFd> for OwnedFd {
    fn from(p: PidFd) -> Self {
        p.0
    }
}
