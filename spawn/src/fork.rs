//! The `fork` strategy: `fork`, prepare, `execve`; a close-on-exec pipe carries the child's
//! errno back (end of file means the exec worked). Available everywhere; its cost grows with
//! the parent's page tables.

use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};

use super::child::{abandon, reap_failed};
use super::child_calls;
use super::clone_backend::pidfd_channel::{self, Report};
use super::dispatch::Spawned;
use super::error::last;
use super::exec_child;
use super::fdplan::copy_above;
use super::ids::ChildIds;
use super::os::pipe_cloexec;
use super::pidfd;
use super::plan::Prepared;
use super::sigs::BlockAll;

/// Spawns with `fork`. A pidfd request is carried out on Linux by the child itself
/// ([`pidfd_channel`]): the report pipe becomes a socket that carries the child's pidfd first.
pub(super) fn spawn(p: &mut Prepared) -> io::Result<Spawned> {
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
    // SAFETY: the child only runs `exec_child::run` (async-signal-safe) and `_exit`.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: in the child, with the view prepared above.
        unsafe {
            if with_pidfd {
                pidfd_channel::send_own(write_end.as_raw_fd());
            }
            let e = exec_child::run::<ChildIds>(&view);
            child_calls::write(
                write_end.as_raw_fd(),
                (&e as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>(),
            );
            child_calls::exit(127)
        }
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
        (Ok(None), Ok(())) => Ok(Spawned { pid, pidfd }),
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
