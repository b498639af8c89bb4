//! Linux: every call is `syscall(2)` with the kernel's number (`syscall` only moves the
//! arguments into registers and sets `errno`: no lock, no cancellation point). `openat` and
//! `dup3` stand in for `open` and `dup2`, which the generic table (arm64, RISC-V, ...) lacks.

use std::ffi::c_char;
use std::os::fd::RawFd;

use crate::platform::errno::errno;

/// 0 for a call that returned 0, else the errno.
fn zero_or_errno(r: libc::c_long) -> libc::c_int {
    if r == -1 {
        errno()
    } else {
        0
    }
}

/// The fd a call returned, else the errno.
fn fd_or_errno(r: libc::c_long) -> Result<RawFd, libc::c_int> {
    if r == -1 {
        return Err(errno());
    }
    RawFd::try_from(r).map_err(|_| libc::EBADF)
}

pub(crate) unsafe fn setsid() -> libc::c_int {
    zero_or_errno(libc::syscall(libc::SYS_setsid))
}

/// `setpgid(0, pgid)`.
pub(crate) unsafe fn setpgid(pgid: libc::pid_t) -> libc::c_int {
    zero_or_errno(libc::syscall(libc::SYS_setpgid, 0 as libc::pid_t, pgid))
}

/// `ioctl(tty, TIOCSCTTY, 0)`: the caller (a new session's leader) takes `tty` as its
/// controlling terminal, without stealing it from another session.
pub(crate) unsafe fn set_controlling_terminal(tty: RawFd) -> libc::c_int {
    let request = libc::TIOCSCTTY as libc::c_ulong;
    zero_or_errno(libc::syscall(libc::SYS_ioctl, tty, request, 0 as libc::c_ulong))
}

/// `tcsetpgrp(tty, getpgrp())`: `ioctl(TIOCSPGRP)` with the caller's own group (`getpgid(0)`;
/// the generic syscall table has no `getpgrp`).
pub(crate) unsafe fn foreground_own_group(tty: RawFd) -> libc::c_int {
    let own = libc::syscall(libc::SYS_getpgid, 0 as libc::pid_t);
    if own == -1 {
        return errno();
    }
    let pgrp = own as libc::pid_t;
    let request = libc::TIOCSPGRP as libc::c_ulong;
    zero_or_errno(libc::syscall(
        libc::SYS_ioctl,
        tty,
        request,
        std::ptr::addr_of!(pgrp),
    ))
}

/// The parent-death signal exists here.
pub(crate) const HAS_PDEATHSIG: bool = true;

/// `prctl(PR_SET_PDEATHSIG, sig)`, then: if `getppid()` is no longer `parent` (it died before
/// the prctl, and the kernel will now never send the signal), `kill(getpid(), sig)`. The
/// signal stays pending while the child has everything blocked and arrives when its mask is
/// set, before `execve`, or after it if the child's own mask blocks it.
pub(crate) unsafe fn set_parent_death_signal(sig: libc::c_int, parent: libc::pid_t) -> libc::c_int {
    let e = zero_or_errno(libc::syscall(
        libc::SYS_prctl,
        libc::PR_SET_PDEATHSIG as libc::c_ulong,
        sig as libc::c_ulong,
        0 as libc::c_ulong,
        0 as libc::c_ulong,
        0 as libc::c_ulong,
    ));
    if e != 0 {
        return e;
    }
    // getppid and getpid cannot fail.
    if libc::syscall(libc::SYS_getppid) == libc::c_long::from(parent) {
        return 0;
    }
    let me = libc::syscall(libc::SYS_getpid);
    zero_or_errno(libc::syscall(libc::SYS_kill, me, sig))
}

/// `no_new_privs` exists here (Linux 3.5).
pub(crate) const HAS_NO_NEW_PRIVS: bool = true;

/// `prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)`: this process and what it execs can never gain
/// privileges through `execve` (set-user-ID bits, file capabilities); it cannot be unset.
pub(crate) unsafe fn set_no_new_privs() -> libc::c_int {
    zero_or_errno(libc::syscall(
        libc::SYS_prctl,
        libc::PR_SET_NO_NEW_PRIVS as libc::c_ulong,
        1 as libc::c_ulong,
        0 as libc::c_ulong,
        0 as libc::c_ulong,
        0 as libc::c_ulong,
    ))
}

/// `prlimit64(0, resource, new, NULL)`: the calling process's limit.
pub(crate) unsafe fn set_rlimit(r: &crate::request::Rlimit) -> libc::c_int {
    let no_old: *mut u64 = std::ptr::null_mut();
    zero_or_errno(libc::syscall(
        libc::SYS_prlimit64,
        0 as libc::pid_t,
        r.resource,
        r.limits.as_ptr(),
        no_old,
    ))
}

/// `umask(mask)`; it cannot fail.
pub(crate) unsafe fn umask(mask: libc::mode_t) {
    libc::syscall(libc::SYS_umask, mask);
}

pub(crate) unsafe fn chdir(path: *const c_char) -> libc::c_int {
    zero_or_errno(libc::syscall(libc::SYS_chdir, path))
}

pub(crate) unsafe fn fchdir(fd: RawFd) -> libc::c_int {
    zero_or_errno(libc::syscall(libc::SYS_fchdir, fd))
}

/// `fcntl(fd, F_DUPFD_CLOEXEC, min)`.
pub(crate) unsafe fn dup_cloexec_above(fd: RawFd, min: RawFd) -> Result<RawFd, libc::c_int> {
    fd_or_errno(libc::syscall(
        libc::SYS_fcntl,
        fd,
        libc::F_DUPFD_CLOEXEC,
        min,
    ))
}

/// `dup2(src, dst)`: `dup3`, except for equal fds (which `dup3` refuses and `dup2` only
/// checks).
pub(crate) unsafe fn dup2(src: RawFd, dst: RawFd) -> libc::c_int {
    if src == dst {
        return zero_or_errno(libc::syscall(libc::SYS_fcntl, src, libc::F_GETFD));
    }
    zero_or_errno(libc::syscall(libc::SYS_dup3, src, dst, 0 as libc::c_int))
}

/// Opens a directory, read-only and close-on-exec. (For `close_fds/linux.rs`; Android closes
/// fds the portable way.)
#[cfg(target_os = "linux")]
pub(crate) unsafe fn open_dir(path: *const c_char) -> Result<RawFd, libc::c_int> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
    fd_or_errno(libc::syscall(libc::SYS_openat, libc::AT_FDCWD, path, flags))
}

/// Closes `fd`; errors are ignored (an fd that was not open is what the callers want).
pub(crate) unsafe fn close(fd: RawFd) {
    libc::syscall(libc::SYS_close, fd);
}

/// `execve`; returns only on failure, with the errno.
pub(crate) unsafe fn execve(
    path: *const c_char,
    argv: *const *const c_char,
    envp: *const *const c_char,
) -> libc::c_int {
    libc::syscall(libc::SYS_execve, path, argv, envp);
    errno()
}

/// One `write` of `len` bytes at `buf` (the fork child's errno report; a short write shows
/// as a short report).
pub(crate) unsafe fn write(fd: RawFd, buf: *const u8, len: usize) {
    libc::syscall(libc::SYS_write, fd, buf, len);
}

/// Ends the child (`exit_group`, what `_exit` calls).
pub(crate) unsafe fn exit(code: libc::c_int) -> ! {
    libc::syscall(libc::SYS_exit_group, code);
    // exit_group does not return; if it ever did, the thread alone ends here.
    loop {
        libc::syscall(libc::SYS_exit, code);
    }
}
