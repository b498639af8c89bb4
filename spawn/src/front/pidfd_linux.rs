//! The child's pidfd. A spawn that asks for one takes it atomically, in the call that creates
//! the child (`CLONE_PIDFD` on clone3 and clone, `pidfd_spawn` for posix_spawn, the child's own
//! `pidfd_open(getpid())` sent over a socket for fork), so it cannot refer to another process
//! even if the child is reaped at once (`SIGCHLD` ignored, `SA_NOCLDWAIT`, a `waitpid(-1)`
//! elsewhere). Only `open` (for a `Child::exit_fd` not asked for at spawn) looks the pid up
//! afterwards. Pidfds are always close-on-exec.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::sync::{Arc, OnceLock};

use super::status::ExitStatus;
pub(crate) use crate::platform::pidfd::open;

/// Where a child's status goes once it is reaped, by its `Child` or through its `PidFd`.
pub(crate) type Reaped = Arc<OnceLock<ExitStatus>>;

/// A process fd: refers to one process for as long as it is open, so a signal sent through it
/// can never reach a process that reused the pid. Polls readable once the process has
/// exited. Mirrors `std::os::linux::process::PidFd`.
///
/// [`wait`](Self::wait) and [`try_wait`](Self::try_wait) reap the process; the `Child` it
/// came from then knows its status (its `wait` returns it, its `kill` does nothing), so it
/// never signals or waits for a pid that may have been reused.
#[derive(Debug)]
pub struct PidFd {
    fd: OwnedFd,
    reaped: Reaped,
}

impl PidFd {
    /// The pidfd of a child whose status, once reaped, goes to `reaped`.
    pub(crate) fn for_child(fd: OwnedFd, reaped: Reaped) -> PidFd {
        PidFd { fd, reaped }
    }

    /// Sends `SIGKILL` (`pidfd_send_signal`).
    pub fn kill(&self) -> io::Result<()> {
        self.send_signal(libc::SIGKILL)
    }

    /// Sends `signal` to the process (`pidfd_send_signal`, Linux 5.1+).
    pub fn send_signal(&self, signal: i32) -> io::Result<()> {
        self.send_signal_flags(signal, 0)
    }

    fn send_signal_flags(&self, signal: i32, flags: libc::c_uint) -> io::Result<()> {
        // SAFETY: a pidfd we own, a signal number and no siginfo.
        let rc = unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                self.fd.as_raw_fd(),
                signal,
                std::ptr::null::<libc::siginfo_t>(),
                flags,
            )
        };
        if rc == -1 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    /// Its status once someone else reaped it, where the kernel keeps it (Linux 6.15's
    /// `PIDFD_INFO_EXIT`).
    pub(crate) fn exit_status(&self) -> Option<ExitStatus> {
        crate::platform::pidfd::exit_status(&self.fd).map(ExitStatus)
    }

    /// Whether the process is still an unreaped child of this process (running or a
    /// zombie): `waitid(P_PIDFD, WNOHANG | WNOWAIT)`, which reaps nothing.
    pub(crate) fn unreaped(&self) -> io::Result<bool> {
        match self.waitid_raw(libc::WEXITED | libc::WNOHANG | libc::WNOWAIT) {
            Ok(_) => Ok(true),
            Err(e) if e.raw_os_error() == Some(libc::ECHILD) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// `SIGKILL` to the process's group (`PIDFD_SIGNAL_PROCESS_GROUP`, Linux 6.9+: the
    /// group is found through the process, never by number); `None` where the kernel does not
    /// know the flag.
    pub(crate) fn kill_group(&self) -> Option<io::Result<()>> {
        /// `PIDFD_SIGNAL_PROCESS_GROUP` from the kernel's `include/uapi/linux/pidfd.h`.
        const PIDFD_SIGNAL_PROCESS_GROUP: libc::c_uint = 1 << 2;
        match self.send_signal_flags(libc::SIGKILL, PIDFD_SIGNAL_PROCESS_GROUP) {
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => None,
            Err(e) if e.raw_os_error() == Some(libc::ESRCH) => Some(Ok(())),
            r => Some(r),
        }
    }

    /// Waits for the process to exit and reaps it (`waitid(P_PIDFD)`, Linux 5.4+). The
    /// `Child` it came from learns the status (and this returns it again once known).
    pub fn wait(&self) -> io::Result<ExitStatus> {
        self.waitid(libc::WEXITED)?
            .ok_or_else(|| io::Error::other("waitid without WNOHANG found no status"))
    }

    /// The status if the process has exited (reaping it), without blocking.
    pub fn try_wait(&self) -> io::Result<Option<ExitStatus>> {
        self.waitid(libc::WEXITED | libc::WNOHANG)
    }

    fn waitid(&self, options: libc::c_int) -> io::Result<Option<ExitStatus>> {
        if let Some(s) = self.reaped.get() {
            return Ok(Some(*s));
        }
        let status = self.waitid_raw(options)?;
        if let Some(s) = status {
            // A concurrent reap through the `Child` found the same status.
            let _ = self.reaped.set(s);
        }
        Ok(status)
    }

    fn waitid_raw(&self, options: libc::c_int) -> io::Result<Option<ExitStatus>> {
        let id =
            libc::id_t::try_from(self.fd.as_raw_fd()).map_err(|_| io::Error::other("bad fd"))?;
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
        self.fd.as_raw_fd()
    }
}

impl AsFd for PidFd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

impl FromRawFd for PidFd {
    unsafe fn from_raw_fd(fd: RawFd) -> Self {
        PidFd::from(OwnedFd::from_raw_fd(fd))
    }
}

impl IntoRawFd for PidFd {
    fn into_raw_fd(self) -> RawFd {
        self.fd.into_raw_fd()
    }
}

impl From<OwnedFd> for PidFd {
    fn from(fd: OwnedFd) -> Self {
        PidFd::for_child(fd, Reaped::default())
    }
}

impl From<PidFd> for OwnedFd {
    fn from(p: PidFd) -> Self {
        p.fd
    }
}
