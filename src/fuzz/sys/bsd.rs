//! FreeBSD and macOS: the libc crate does not declare every `_np` action for them, so they are
//! looked up at run time. `POSIX_SPAWN_SETSID` is not declared by the libc crate for these
//! targets and its value is not verified here, so sequences that ask for it are reported
//! `unsupported` rather than run with a guessed constant.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

use super::{dl, Extensions};

pub fn extensions() -> Extensions {
    Extensions {
        addchdir: dl::add_chdir(c"posix_spawn_file_actions_addchdir_np"),
        addfchdir: dl::add_fd(c"posix_spawn_file_actions_addfchdir_np"),
        addclosefrom: dl::add_fd(c"posix_spawn_file_actions_addclosefrom_np"),
        setsid_flag: None,
    }
}

/// Duplicates `src` onto `target` and sets `FD_CLOEXEC`. There is a short window without the
/// flag (macOS has no `dup3`); the fuzz runner spawns from one thread, so nothing can inherit it.
pub fn dup_cloexec_to(src: i32, target: i32) -> io::Result<()> {
    // SAFETY: plain syscalls on caller-owned fds.
    unsafe {
        if libc::dup2(src, target) < 0 || libc::fcntl(target, libc::F_SETFD, libc::FD_CLOEXEC) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A pipe with both ends close-on-exec (set right after creation; see [`dup_cloexec_to`]).
pub fn pipe_cloexec() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two fds into the array; fcntl only sets their flags.
    unsafe {
        if libc::pipe(fds.as_mut_ptr()) < 0 {
            return Err(io::Error::last_os_error());
        }
        let pair = (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]));
        for fd in fds {
            if libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(pair)
    }
}

/// This process's children: not listed here on these platforms (no `/proc` children file).
pub fn live_children() -> Option<Vec<u32>> {
    None
}
