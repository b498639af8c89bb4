//! Elsewhere: libc's calls, in a forked child (its only thread).

use std::ffi::c_char;
use std::os::fd::RawFd;

use crate::platform::errno::errno;

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

/// `ioctl(tty, TIOCSCTTY, 0)`: the caller (a new session's leader) takes `tty` as its
/// controlling terminal.
pub(crate) unsafe fn set_controlling_terminal(tty: RawFd) -> libc::c_int {
    zero_or_errno(libc::ioctl(tty, libc::TIOCSCTTY as _, 0 as libc::c_int))
}

/// `tcsetpgrp(tty, getpgrp())`.
pub(crate) unsafe fn foreground_own_group(tty: RawFd) -> libc::c_int {
    zero_or_errno(libc::tcsetpgrp(tty, libc::getpgrp()))
}

/// No `no_new_privs` here (FreeBSD's `PROC_NO_NEW_PRIVS_CTL` is not wired up).
pub(crate) const HAS_NO_NEW_PRIVS: bool = false;

/// Never reached: `Prepared::platform_cannot` refuses `no_new_privs` here.
pub(crate) unsafe fn set_no_new_privs() -> libc::c_int {
    libc::ENOSYS
}

/// Whether this platform has a parent-death signal (FreeBSD's `procctl`; DragonFly's differs
/// in number and is not declared here).
pub(crate) const HAS_PDEATHSIG: bool = cfg!(target_os = "freebsd");

/// `procctl(P_PID, 0, PROC_PDEATHSIG_CTL, &sig)`, then: if `getppid()` is no longer `parent`
/// (it died before the call), `kill(getpid(), sig)`, so the signal is not lost.
#[cfg(target_os = "freebsd")]
pub(crate) unsafe fn set_parent_death_signal(sig: libc::c_int, parent: libc::pid_t) -> libc::c_int {
    let mut arg = sig;
    let rc = libc::procctl(
        libc::P_PID,
        0,
        libc::PROC_PDEATHSIG_CTL,
        std::ptr::addr_of_mut!(arg).cast(),
    );
    if rc == -1 {
        return errno();
    }
    if libc::getppid() == parent {
        return 0;
    }
    zero_or_errno(libc::kill(libc::getpid(), sig))
}

/// Never reached: `Prepared::platform_cannot` refuses a parent-death signal here.
#[cfg(not(target_os = "freebsd"))]
pub(crate) unsafe fn set_parent_death_signal(_: libc::c_int, _: libc::pid_t) -> libc::c_int {
    libc::ENOSYS
}

pub(crate) unsafe fn set_rlimit(r: &crate::request::Rlimit) -> libc::c_int {
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
