//! The `fork` strategy: `fork`, prepare, `execve`; a close-on-exec pipe carries the child's
//! errno back (end of file means the exec worked). Available everywhere; its cost grows with
//! the parent's page tables.

use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};

use super::Spawned;
use crate::child_side::fork_entry;
use crate::plan::fdplan::copy_above;
use crate::plan::sigs::BlockAll;
use crate::plan::Prepared;
use crate::platform::errno::last;
use crate::platform::pidfd;
use crate::platform::pipe_cloexec;
use crate::platform::wait::{abandon, reap_failed};
use pidfd_channel::Report;

#[cfg(target_os = "linux")]
mod pidfd_channel;
#[cfg(not(target_os = "linux"))]
#[path = "no_pidfd_channel.rs"]
mod pidfd_channel;

/// Spawns with `fork`. A pidfd request is carried out on Linux by the child itself
/// ([`pidfd_channel`]): the report pipe becomes a socket that carries the child's pidfd first.
pub(crate) fn spawn(p: &mut Prepared) -> io::Result<Spawned> {
    let with_pidfd = p.want_pidfd && cfg!(target_os = "linux");
    let (read_end, write_end) = match with_pidfd {
        true => pidfd_channel::channel()?,
        false => pipe_cloexec()?,
    };
    let write_end = away_from_targets(write_end, p)?;
    if let Some(close) = &mut p.close {
        close.keep_also(write_end.as_raw_fd());
    }
    let block = BlockAll::new()?;
    let mask = p.mask.as_ref().unwrap_or(block.old()) as *const libc::sigset_t;
    let view = p.view(mask, true);
    // SAFETY: the child only runs `fork_entry::fork_child` (async-signal-safe).
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: in the child, with the view prepared above.
        unsafe { fork_entry::fork_child(&view, write_end.as_raw_fd(), with_pidfd) }
    }
    let fork_error = (pid == -1).then(last);
    let restored = block.restore();
    if let Some(e) = fork_error {
        return Err(e);
    }
    drop(write_end);
    let pidfd = match with_pidfd {
        true => match pidfd_channel::receive(&read_end) {
            Ok(Report::Pidfd(r)) => Some(r),
            Ok(Report::Errno(errno)) => return Err(reap_failed(pid, errno)),
            Ok(Report::Nothing) => Some(Err(io::Error::other(
                "the forked child did not send its pidfd",
            ))),
            Err(e) => return Err(abandon(pid, e)),
        },
        false => p.want_pidfd.then(|| Err(pidfd::unsupported())),
    };
    match (read_errno(read_end), restored) {
        (Ok(None), Ok(())) => Ok(Spawned { pid, pidfd, autoreaped: false }),
        (Ok(Some(errno)), _) => Err(reap_failed(pid, errno)),
        (Err(e), _) | (Ok(None), Err(e)) => Err(abandon(pid, e)),
    }
}

/// The errno the child wrote, or `None` at end of file (it exec'd).
fn read_errno(fd: OwnedFd) -> io::Result<Option<libc::c_int>> {
    let mut f = std::fs::File::from(fd);
    let mut buf = [0u8; std::mem::size_of::<libc::c_int>()];
    let mut got = 0;
    while got < buf.len() {
        match f.read(&mut buf[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(io::Error::other("short errno report from the child")),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Some(libc::c_int::from_ne_bytes(buf)))
}

/// Moves the report pipe above every fd the plan writes, so no `dup2` closes it.
fn away_from_targets(fd: OwnedFd, p: &Prepared) -> io::Result<OwnedFd> {
    if !p.fds.is_target(fd.as_raw_fd()) {
        return Ok(fd);
    }
    copy_above(fd.as_raw_fd(), p.fds.high)
}
