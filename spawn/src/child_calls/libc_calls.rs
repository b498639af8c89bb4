//! Elsewhere: libc's calls, in a forked child (its only thread).

use std::ffi::c_char;
use std::os::fd::RawFd;

use crate::error::errno;

fn zero_or_errno(r: libc::c_int) -> libc::c_int {
    if r == -1 {
        errno()
    } else {
        0
    }
}

fn fd_or_errno(r: libc::c_int) -> Result<RawFd, libc::c_int> {
    if r == -1 {
        Err(errno())
    } else {
        Ok(r)
    }
}

pub(crate) unsafe fn setsid() -> libc::c_int {
    zero_or_errno(libc::setsid())
}

/// `setpgid(0, pgid)`.
pub(crate) unsafe fn setpgid(pgid: libc::pid_t) -> libc::c_int {
    zero_or_errno(libc::setpgid(0, pgid))
}

pub(crate) unsafe fn set_rlimit(r: &crate::rlimit::Rlimit) -> libc::c_int {
    zero_or_errno(libc::setrlimit(r.resource as _, &r.limits))
}

/// `umask(mask)`; it cannot fail.
pub(crate) unsafe fn umask(mask: libc::mode_t) {
    libc::umask(mask);
}

pub(crate) unsafe fn chdir(path: *const c_char) -> libc::c_int {
    zero_or_errno(libc::chdir(path))
}

pub(crate) unsafe fn fchdir(fd: RawFd) -> libc::c_int {
    zero_or_errno(libc::fchdir(fd))
}

/// `fcntl(fd, F_DUPFD_CLOEXEC, min)`.
pub(crate) unsafe fn dup_cloexec_above(fd: RawFd, min: RawFd) -> Result<RawFd, libc::c_int> {
    fd_or_errno(libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, min))
}

pub(crate) unsafe fn dup2(src: RawFd, dst: RawFd) -> libc::c_int {
    zero_or_errno(libc::dup2(src, dst))
}

/// Closes `fd`; errors are ignored (an fd that was not open is what the callers want).
pub(crate) unsafe fn close(fd: RawFd) {
    libc::close(fd);
}

/// `execve`; returns only on failure, with the errno.
pub(crate) unsafe fn execve(
    path: *const c_char,
    argv: *const *const c_char,
    envp: *const *const c_char,
) -> libc::c_int {
    libc::execve(path, argv, envp);
    errno()
}

/// One `write` of `len` bytes at `buf`.
pub(crate) unsafe fn write(fd: RawFd, buf: *const u8, len: usize) {
    libc::write(fd, buf.cast(), len);
}

/// Ends the child.
pub(crate) unsafe fn exit(code: libc::c_int) -> ! {
    libc::_exit(code)
}
