//! Linux kernel features the shared spawn implementation relies on, asked of the kernel.
//!
//! - `clone3`: `clone3(NULL, 0)` creates nothing; `ENOSYS` means no clone3 (old kernel or a
//!   seccomp filter), `EINVAL` (size too small) means the kernel has it.
//! - `CLONE_CLEAR_SIGHAND`: a real `clone3` with that flag and fork semantics (no
//!   `CLONE_VM`); the child `_exit(0)`s at once and is reaped here. `EINVAL` = not supported.
//! - `pidfd_open`: `pidfd_open(getpid(), 0)`; the fd (always close-on-exec) is closed again.
//!   (`Command::close_fds` and `Child::exit_fd`/`create_pidfd` rely on these two.)
//! - `close_range`: `close_range(~0U, ~0U, 0)` closes the one fd number no process has open;
//!   0 means the kernel has it (5.9+), `ENOSYS` that it does not.
//! - `CLOSE_RANGE_CLOEXEC`: the same call with that flag; 0 means the kernel knows the flag
//!   (5.11+), `EINVAL` that it does not.
//! - `CLONE_PIDFD`: a real `clone3` with that flag and fork semantics; the kernel stores a
//!   pidfd (5.2+; the probe needs clone3, and without it the answer is `kernel-unprobed`).
//! - `CLONE_INTO_CGROUP`: `clone3` with that flag and a cgroup fd number that is not open
//!   (`INT_MAX`): `EBADF` means the kernel read the flag and looked the fd up (5.7+), `EINVAL`
//!   or `E2BIG` (the larger `struct clone_args`) that it does not know it. Nothing is created.
//! - `pidfd_send_signal`: signal 0 (a permission check, nothing is sent) to this process's
//!   own pidfd (5.1+); without `pidfd_open`, to fd -1, where `EBADF` says the call exists.
//! - `waitid_P_PIDFD`: `waitid(P_PIDFD, own pidfd, WEXITED|WNOHANG)`: `ECHILD` (this process
//!   is not its own child) means the kernel knows `P_PIDFD` (5.4+), `EINVAL` that it does not;
//!   without a pidfd, fd `INT_MAX` (not open), where `EBADF` says the same.
//! - `PR_SET_PDEATHSIG`: `prctl(PR_GET_PDEATHSIG, &sig)` reads this process's parent-death
//!   signal and changes nothing; 0 means the kernel knows the option (`PR_GET_PDEATHSIG` came
//!   in 2.3.15, after `PR_SET_PDEATHSIG` in 2.1.57, so answering it implies the setter),
//!   `EINVAL` that it does not (`Command::parent_death_signal` relies on it).
//! - `PIDFD_GET_INFO`: the ioctl on this process's own pidfd, asking for the pid; the pid it
//!   returns must be ours (6.13+). `ENOTTY` or `EINVAL` (an ioctl the pidfd does not know)
//!   means absent.
//! - `PIDFD_INFO_EXIT`: a clone3 child with `CLONE_PIDFD` exits with 7 and is reaped; then
//!   `PIDFD_GET_INFO` asking for `PIDFD_INFO_EXIT` must return its wait status (6.15+).
//!   `ESRCH` (the process is gone) or a reply without the bit means absent.
//! - `CLONE_AUTOREAP`: a clone3 child with `CLONE_PIDFD|CLONE_AUTOREAP` and no exit signal
//!   exits at once; once its pidfd says it exited, `waitpid` must find no child (`ECHILD`):
//!   the kernel reaped it (7.1+).
//! - `CLONE_NNP`: a clone3 child with the flag reads its own `PR_GET_NO_NEW_PRIVS`, which
//!   must be 1, and says so in its exit status (7.1+).
//! - `CLONE_PIDFD_AUTOKILL`: a clone3 child with `CLONE_PIDFD|CLONE_AUTOREAP|
//!   CLONE_PIDFD_AUTOKILL` (and `CLONE_NNP`, so no privilege is needed) waits for a signal;
//!   closing the pidfd clone3 returned must kill it, seen through a second pidfd from
//!   `pidfd_open` (which does not keep it alive) within 10 s (7.1+).
//!
//! For the clone3 flags, `EINVAL` for a request that is valid where the flag exists means the
//! kernel does not know the flag (absent). `EPERM` or `EACCES` from any of the newer probes
//! is a refusal (a seccomp filter, an LSM, or for `CLONE_PIDFD_AUTOKILL` a missing privilege):
//! the answer is `kernel-refused`, unknown, never absent.
//!
//! None of these runs on Android (this module is Linux-only): a system call its seccomp
//! policy does not allow ends the process with `SIGSYS` there.
//!
//! A probe that fails for want of resources (`EAGAIN`: a process limit; `EMFILE`/`ENFILE`: an
//! fd limit; `ENOMEM`; `EINTR`) learned nothing about the kernel: the feature is reported as
//! `kernel-probe-failed` (unknown), never as absent.

use std::ffi::c_long;
use std::io;

use super::{observed, Capability, PROBE_FAILED, REFUSED, UNPROBED};
use crate::sys::errno;
use crate::sys::linux_kernel::{
    CloneArgs, PidfdInfo, CLONE_AUTOREAP, CLONE_CLEAR_SIGHAND, CLONE_INTO_CGROUP, CLONE_NNP,
    CLONE_PIDFD_AUTOKILL, PIDFD_GET_INFO, PIDFD_INFO_EXIT, PIDFD_INFO_PID,
};

pub(super) fn detect() -> Vec<(String, Capability)> {
    let clone3 = clone3();
    let needs_clone3 = || observed(false, "kernel-syscall", Some("needs clone3".to_string()));
    let (clear_sighand, clone_pidfd, into_cgroup) = if clone3.available {
        (clear_sighand(), clone_pidfd(), into_cgroup())
    } else {
        // CLONE_PIDFD works with the legacy clone too (which this probe does not make).
        (needs_clone3(), clone3_unprobed(), needs_clone3())
    };
    let pidfd = self_pidfd();
    let get_info = pidfd_get_info(&pidfd);
    let (info_exit, autoreap, nnp, autokill) = if clone3.available {
        let nnp = nnp();
        let info_exit = if get_info.available {
            pidfd_info_exit()
        } else {
            observed(false, "kernel-ioctl", Some("needs PIDFD_GET_INFO".to_string()))
        };
        (info_exit, autoreap(), autokill(nnp.available), nnp)
    } else {
        let u = clone3_unprobed;
        (u(), u(), u(), u())
    };
    let mut caps = vec![
        ("clone3".to_string(), clone3),
        ("CLONE_CLEAR_SIGHAND".to_string(), clear_sighand),
        ("CLONE_PIDFD".to_string(), clone_pidfd),
        ("CLONE_INTO_CGROUP".to_string(), into_cgroup),
        ("pidfd_open".to_string(), pidfd_open(&pidfd)),
        ("pidfd_send_signal".to_string(), pidfd_send_signal(&pidfd)),
        ("waitid_P_PIDFD".to_string(), waitid_pidfd(&pidfd)),
        ("close_range".to_string(), close_range(0)),
        (
            "CLOSE_RANGE_CLOEXEC".to_string(),
            close_range(CLOSE_RANGE_CLOEXEC),
        ),
        ("PR_SET_PDEATHSIG".to_string(), pdeathsig()),
        ("PIDFD_GET_INFO".to_string(), get_info),
        ("PIDFD_INFO_EXIT".to_string(), info_exit),
        ("CLONE_AUTOREAP".to_string(), autoreap),
        ("CLONE_NNP".to_string(), nnp),
        ("CLONE_PIDFD_AUTOKILL".to_string(), autokill),
    ];
    if let Ok(fd) = pidfd {
        // SAFETY: closes the pidfd self_pidfd opened, which nothing else knows about.
        unsafe { libc::close(fd) };
    }
    #[cfg(target_os = "linux")]
    caps.push(("crate.clone3".to_string(), crate_clone3()));
    caps
}

/// A feature probed with clone3 where clone3 is refused: unknown.
fn clone3_unprobed() -> Capability {
    observed(
        false,
        UNPROBED,
        Some("probed with clone3, which is refused here: unknown".to_string()),
    )
}

/// Whether this crate can call clone3 on the target architecture (it needs a trampoline),
/// apart from whether the kernel has it (`clone3` above).
#[cfg(target_os = "linux")]
fn crate_clone3() -> Capability {
    let has = crate::platform::clone3::HAS_TRAMPOLINE;
    let note = (!has).then(|| "no clone3 trampoline for this architecture".to_string());
    observed(has, "crate-arch", note)
}

/// The errno of a raw syscall that returned -1.
fn last_errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// Whether a probe's errno says only that a resource ran out, not what the kernel supports.
fn transient(errno: i32) -> bool {
    matches!(
        errno,
        libc::EAGAIN | libc::EMFILE | libc::ENFILE | libc::ENOMEM | libc::EINTR
    )
}

/// Whether a probe's errno is a refusal (a seccomp filter, an LSM, a missing privilege),
/// which says nothing about what the kernel has.
fn refusal(errno: i32) -> bool {
    matches!(errno, libc::EPERM | libc::EACCES)
}

/// The answer for a refused probe: unknown.
fn refused(call: &str, e: i32) -> Capability {
    observed(
        false,
        REFUSED,
        Some(format!("{call} answered {}: refused, unknown", errno::name(e))),
    )
}

/// The answer for a probe that failed transiently: unknown.
fn probe_failed(e: i32) -> Capability {
    observed(
        false,
        PROBE_FAILED,
        Some(format!("the probe failed with {}: unknown", errno::name(e))),
    )
}

fn clone3() -> Capability {
    // SAFETY: a NULL clone_args with size 0 is rejected before anything is created.
    let rc = unsafe { libc::syscall(libc::SYS_clone3, std::ptr::null::<CloneArgs>(), 0usize) };
    let e = last_errno();
    match (rc, e) {
        (-1, libc::EINVAL) => observed(true, "kernel-syscall", None),
        (-1, libc::ENOSYS) => observed(false, "kernel-syscall", Some("ENOSYS".to_string())),
        (-1, e) if transient(e) => probe_failed(e),
        (-1, e) => observed(
            false,
            "kernel-syscall",
            Some(format!("clone3 answered {}", errno::name(e))),
        ),
        (rc, _) => observed(
            false,
            "kernel-syscall",
            Some(format!("clone3(NULL, 0) unexpectedly returned {rc}")),
        ),
    }
}

fn clear_sighand() -> Capability {
    let pid = match clone3_fork(CLONE_CLEAR_SIGHAND, libc::SIGCHLD as u64, || 0) {
        Ok((pid, _)) => pid,
        Err(e) if transient(e) => return probe_failed(e),
        Err(e) => {
            let note = (e != libc::EINVAL).then(|| format!("clone3 answered {}", errno::name(e)));
            return observed(false, "kernel-clone3-child", note);
        }
    };
    child_ended(reap(pid))
}

/// The answer for a probe child that was to exit with 0: available if it did.
fn child_ended(reaped: io::Result<i32>) -> Capability {
    match reaped {
        Ok(0) => observed(true, "kernel-clone3-child", None),
        Ok(status) => observed(
            false,
            "kernel-clone3-child",
            Some(format!("the child ended with wait status {status:#x}")),
        ),
        Err(e) => observed(
            false,
            "kernel-clone3-child",
            Some(format!("waitpid failed: {e}")),
        ),
    }
}

/// Waits for `pid` and returns its raw wait status.
fn reap(pid: c_long) -> io::Result<i32> {
    let mut status = 0;
    loop {
        // SAFETY: waits for our own child; `status` outlives the call.
        let rc = unsafe { libc::waitpid(pid as libc::pid_t, &mut status, 0) };
        if rc != -1 {
            return Ok(status);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// `close_range`'s flag that marks the range close-on-exec (Linux 5.11, `linux/close_range.h`).
const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
/// `waitid`'s id type for a pidfd (Linux 5.4, `linux/wait.h`).
const P_PIDFD: libc::c_int = 3;

/// A pidfd of this process (`pidfd_open(getpid(), 0)`; close-on-exec), or the errno.
fn self_pidfd() -> Result<libc::c_int, i32> {
    // SAFETY: pidfd_open on our own pid; the caller closes the fd.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) };
    match fd {
        -1 => Err(last_errno()),
        fd => Ok(fd as libc::c_int),
    }
}

fn pidfd_open(pidfd: &Result<libc::c_int, i32>) -> Capability {
    match *pidfd {
        Ok(_) => observed(true, "kernel-syscall", None),
        Err(e) if transient(e) => probe_failed(e),
        Err(e) => observed(false, "kernel-syscall", Some(errno::name(e))),
    }
}

fn pidfd_send_signal(pidfd: &Result<libc::c_int, i32>) -> Capability {
    let (fd, want) = match *pidfd {
        Ok(fd) => (fd, 0),
        Err(e) if transient(e) => return probe_failed(e),
        Err(_) => (-1, libc::EBADF),
    };
    // SAFETY: signal 0 is a permission check only (nothing is delivered), no siginfo.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            fd,
            0,
            std::ptr::null::<libc::siginfo_t>(),
            0,
        )
    };
    let e = if rc == -1 { last_errno() } else { 0 };
    match e {
        e if e == want => observed(true, "kernel-syscall", None),
        e if transient(e) => probe_failed(e),
        0 => observed(
            false,
            "kernel-syscall",
            Some("signal 0 to fd -1 unexpectedly succeeded".to_string()),
        ),
        e => observed(false, "kernel-syscall", Some(errno::name(e))),
    }
}

fn waitid_pidfd(pidfd: &Result<libc::c_int, i32>) -> Capability {
    let (fd, want) = match *pidfd {
        Ok(fd) => (fd, libc::ECHILD),
        Err(e) if transient(e) => return probe_failed(e),
        Err(_) => (libc::c_int::MAX, libc::EBADF),
    };
    // SAFETY: `info` outlives the call; WNOHANG, and the id is this process (never its own
    // child) or an fd number that is not open, so nothing is waited for or reaped.
    let rc = unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::syscall(
            libc::SYS_waitid,
            P_PIDFD,
            fd,
            &mut info as *mut libc::siginfo_t,
            libc::WEXITED | libc::WNOHANG,
            std::ptr::null_mut::<libc::rusage>(),
        )
    };
    let e = if rc == -1 { last_errno() } else { 0 };
    match e {
        e if e == want => observed(true, "kernel-syscall", None),
        e if transient(e) => probe_failed(e),
        libc::EINVAL => observed(false, "kernel-syscall", Some("EINVAL".to_string())),
        e => observed(
            false,
            "kernel-syscall",
            Some(format!("waitid(P_PIDFD) answered {}", errno::name(e))),
        ),
    }
}

fn close_range(flags: libc::c_uint) -> Capability {
    let top = libc::c_uint::MAX;
    // SAFETY: closes (or marks close-on-exec) fd number 2^32-1 at most, which cannot be open.
    let rc = unsafe { libc::syscall(libc::SYS_close_range, top, top, flags) };
    if rc == -1 {
        return observed(false, "kernel-syscall", Some(errno::name(last_errno())));
    }
    observed(true, "kernel-syscall", None)
}

fn pdeathsig() -> Capability {
    let mut sig: libc::c_int = 0;
    // SAFETY: PR_GET_PDEATHSIG only stores this process's parent-death signal into `sig`.
    let rc = unsafe { libc::prctl(libc::PR_GET_PDEATHSIG, &mut sig as *mut libc::c_int) };
    match (rc, last_errno()) {
        (0, _) => observed(true, "kernel-syscall", None),
        (_, e) if transient(e) => probe_failed(e),
        (_, e) => observed(
            false,
            "kernel-syscall",
            Some(format!("prctl(PR_GET_PDEATHSIG) answered {}", errno::name(e))),
        ),
    }
}

fn into_cgroup() -> Capability {
    let args = CloneArgs {
        flags: CLONE_INTO_CGROUP,
        exit_signal: libc::SIGCHLD as u64,
        cgroup: libc::c_int::MAX as u64,
        ..CloneArgs::default()
    };
    // SAFETY: the cgroup fd is not open, so the kernel refuses before a child exists; if one
    // were created all the same it is a fork child that only calls _exit.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone3,
            &args as *const CloneArgs,
            size_of::<CloneArgs>(),
        )
    };
    if pid == 0 {
        // SAFETY: in the child; ends it at once.
        unsafe { libc::_exit(0) }
    }
    if pid > 0 {
        let _ = reap(pid);
        return observed(
            false,
            "kernel-syscall",
            Some("clone3 took a cgroup fd that is not open".to_string()),
        );
    }
    match last_errno() {
        libc::EBADF => observed(true, "kernel-syscall", None),
        e if transient(e) => probe_failed(e),
        e => observed(false, "kernel-syscall", Some(errno::name(e))),
    }
}

fn clone_pidfd() -> Capability {
    let (pid, pidfd) = match clone3_fork(libc::CLONE_PIDFD as u64, libc::SIGCHLD as u64, || 0) {
        Ok(child) => child,
        Err(e) if transient(e) => return probe_failed(e),
        Err(e) => return observed(false, "kernel-clone3-child", Some(errno::name(e))),
    };
    let reaped = reap(pid);
    if pidfd < 0 {
        return observed(
            false,
            "kernel-clone3-child",
            Some("the kernel stored no pidfd".to_string()),
        );
    }
    // SAFETY: closes the pidfd the kernel just gave us.
    unsafe { libc::close(pidfd) };
    child_ended(reaped)
}

/// `clone3` with fork semantics (no `CLONE_VM`): in the parent the child's pid and, with
/// `CLONE_PIDFD`, its pidfd (else -1), or the errno. The child runs `child`, which makes
/// async-signal-safe calls only, and `_exit`s with what it returns.
fn clone3_fork(flags: u64, exit_signal: u64, child: fn() -> i32) -> Result<(c_long, i32), i32> {
    let mut pidfd: libc::c_int = -1;
    let args = CloneArgs {
        flags,
        pidfd: &mut pidfd as *mut libc::c_int as u64,
        exit_signal,
        ..CloneArgs::default()
    };
    // SAFETY: without CLONE_VM this is a fork: the child has its own copy of memory and only
    // runs `child` (async-signal-safe by contract) and _exit; the kernel writes the pidfd
    // into `pidfd`, alive here.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone3,
            &args as *const CloneArgs,
            crate::sys::linux_kernel::CLONE_ARGS_SIZE_VER0,
        )
    };
    if pid == 0 {
        // SAFETY: in the child; ends it with the child function's answer.
        unsafe { libc::_exit(child()) }
    }
    if pid == -1 {
        return Err(last_errno());
    }
    Ok((pid, pidfd))
}

/// The answer for a clone3 flag probe whose clone3 failed with `e`.
fn clone3_refused(e: i32) -> Capability {
    match e {
        e if transient(e) => probe_failed(e),
        e if refusal(e) => refused("clone3", e),
        libc::EINVAL => observed(
            false,
            "kernel-clone3-child",
            Some("EINVAL: the kernel does not know the flag".to_string()),
        ),
        e => observed(
            false,
            "kernel-clone3-child",
            Some(format!("clone3 answered {}", errno::name(e))),
        ),
    }
}

/// `PIDFD_GET_INFO` on `pidfd` asking for `mask`: the reply, or the errno.
fn get_info(pidfd: libc::c_int, mask: u64) -> Result<PidfdInfo, i32> {
    let mut info = PidfdInfo {
        mask,
        ..PidfdInfo::default()
    };
    // SAFETY: the ioctl fills at most size_of::<PidfdInfo>() bytes (its size is in the
    // request number); `info` outlives the call.
    let rc = unsafe { libc::ioctl(pidfd, PIDFD_GET_INFO, &mut info as *mut PidfdInfo) };
    if rc == -1 {
        return Err(last_errno());
    }
    Ok(info)
}

/// Waits up to `ms` for `pidfd` to become readable (its process exited): whether it did.
fn exited_within(pidfd: libc::c_int, ms: libc::c_int) -> bool {
    let mut p = libc::pollfd {
        fd: pidfd,
        events: libc::POLLIN,
        revents: 0,
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms as u64);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        // SAFETY: one pollfd, alive for the call.
        let rc = unsafe { libc::poll(&mut p, 1, left.as_millis() as libc::c_int) };
        match rc {
            1.. => return p.revents & libc::POLLIN != 0,
            0 => return false,
            _ if last_errno() == libc::EINTR => continue,
            _ => return false,
        }
    }
}

/// Closes an fd this module opened.
fn close(fd: libc::c_int) {
    if fd >= 0 {
        // SAFETY: the fd is this probe's own, closed once.
        unsafe { libc::close(fd) };
    }
}

/// Kills the child behind `pidfd` (a probe that went wrong) so that nothing outlives it.
fn kill(pidfd: libc::c_int) {
    // SAFETY: signals the probe's own child through its pidfd; no siginfo.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            pidfd,
            libc::SIGKILL,
            std::ptr::null::<libc::siginfo_t>(),
            0,
        )
    };
}

fn pidfd_get_info(pidfd: &Result<libc::c_int, i32>) -> Capability {
    let fd = match *pidfd {
        Ok(fd) => fd,
        Err(e) if transient(e) => return probe_failed(e),
        Err(_) => {
            return observed(false, "kernel-ioctl", Some("needs pidfd_open".to_string()));
        }
    };
    match get_info(fd, PIDFD_INFO_PID) {
        // SAFETY: getpid has no preconditions.
        Ok(info) if info.mask & PIDFD_INFO_PID != 0 && info.pid == unsafe { libc::getpid() } as u32 => {
            observed(true, "kernel-ioctl", None)
        }
        Ok(info) => observed(
            false,
            "kernel-ioctl",
            Some(format!("answered mask {:#x}, pid {}", info.mask, info.pid)),
        ),
        Err(e) if transient(e) => probe_failed(e),
        Err(e) if refusal(e) => refused("PIDFD_GET_INFO", e),
        Err(e) => observed(false, "kernel-ioctl", Some(errno::name(e))),
    }
}

fn pidfd_info_exit() -> Capability {
    let (pid, pidfd) = match clone3_fork(libc::CLONE_PIDFD as u64, libc::SIGCHLD as u64, || 7) {
        Ok(child) => child,
        Err(e) if transient(e) => return probe_failed(e),
        Err(e) => return observed(false, "kernel-ioctl", Some(format!("clone3 answered {}", errno::name(e)))),
    };
    let reaped = reap(pid);
    let answer = match (reaped, get_info(pidfd, PIDFD_INFO_EXIT)) {
        (Err(e), _) => observed(false, "kernel-ioctl", Some(format!("waitpid failed: {e}"))),
        (Ok(status), Ok(info)) if info.mask & PIDFD_INFO_EXIT != 0 && info.exit_code == status => {
            observed(true, "kernel-ioctl", None)
        }
        (Ok(status), Ok(info)) => observed(
            false,
            "kernel-ioctl",
            Some(format!(
                "answered mask {:#x}, exit_code {:#x} for wait status {status:#x}",
                info.mask, info.exit_code
            )),
        ),
        (Ok(_), Err(e)) if transient(e) => probe_failed(e),
        (Ok(_), Err(e)) if refusal(e) => refused("PIDFD_GET_INFO", e),
        (Ok(_), Err(e)) => observed(
            false,
            "kernel-ioctl",
            Some(format!("{} for a reaped child", errno::name(e))),
        ),
    };
    close(pidfd);
    answer
}

fn autoreap() -> Capability {
    let flags = libc::CLONE_PIDFD as u64 | CLONE_AUTOREAP;
    let (pid, pidfd) = match clone3_fork(flags, 0, || 0) {
        Ok(child) => child,
        Err(e) => return clone3_refused(e),
    };
    let exited = exited_within(pidfd, 10_000);
    let mut status = 0;
    // SAFETY: looks for our own child, which has no exit signal (hence __WALL); WNOHANG.
    let rc = unsafe { libc::waitpid(pid as libc::pid_t, &mut status, libc::WNOHANG | libc::__WALL) };
    let e = last_errno();
    let answer = match rc {
        -1 if e == libc::ECHILD && exited => observed(true, "kernel-clone3-child", None),
        -1 => observed(false, "kernel-clone3-child", Some(format!("waitpid answered {}", errno::name(e)))),
        0 => {
            kill(pidfd);
            // SAFETY: as above, now waiting for the killed child, if the kernel left it.
            unsafe { libc::waitpid(pid as libc::pid_t, &mut status, libc::__WALL) };
            observed(false, "kernel-clone3-child", Some("the child did not exit within 10 s".to_string()))
        }
        _ => observed(
            false,
            "kernel-clone3-child",
            Some("clone3 took the flag, but the child was left for waitpid".to_string()),
        ),
    };
    close(pidfd);
    answer
}

fn nnp() -> Capability {
    // SAFETY: PR_GET_NO_NEW_PRIVS reads this process's flag and changes nothing.
    let own = unsafe { libc::prctl(libc::PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) };
    let child = || {
        // SAFETY: a raw prctl in the fork child, async-signal-safe; it only reads the flag.
        let nnp = unsafe { libc::syscall(libc::SYS_prctl, libc::PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) };
        if nnp == 1 { 0 } else { 1 }
    };
    let (pid, pidfd) = match clone3_fork(CLONE_NNP, libc::SIGCHLD as u64, child) {
        Ok(child) => child,
        Err(e) => return clone3_refused(e),
    };
    close(pidfd);
    match reap(pid) {
        // This process had no_new_privs already: the child inherits it, flag or not.
        Ok(0) if own == 1 => observed(
            true,
            "kernel-clone3-child",
            Some("clone3 took the flag; this process has no_new_privs already, so the child's says no more".to_string()),
        ),
        Ok(0) => observed(true, "kernel-clone3-child", None),
        Ok(status) => observed(
            false,
            "kernel-clone3-child",
            Some(format!("clone3 took the flag, but the child ended with wait status {status:#x} (1 << 8: no no_new_privs)")),
        ),
        Err(e) => observed(false, "kernel-clone3-child", Some(format!("waitpid failed: {e}"))),
    }
}

fn autokill(nnp: bool) -> Capability {
    // With CLONE_NNP no privilege is needed; without it (a kernel that lacks CLONE_NNP lacks
    // this flag too) EPERM says only that CAP_SYS_ADMIN is missing.
    let flags = libc::CLONE_PIDFD as u64
        | CLONE_AUTOREAP
        | CLONE_PIDFD_AUTOKILL
        | if nnp { CLONE_NNP } else { 0 };
    let child = || loop {
        // SAFETY: pause is async-signal-safe; the child waits for the SIGKILL.
        unsafe { libc::pause() };
    };
    let (pid, pidfd) = match clone3_fork(flags, 0, child) {
        Ok(child) => child,
        Err(e) => return clone3_refused(e),
    };
    // SAFETY: pidfd_open on our own child, which cannot have been reaped (it waits for a
    // signal); the fd is closed below.
    let watch = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) } as libc::c_int;
    if watch < 0 {
        let e = last_errno();
        kill(pidfd);
        close(pidfd);
        return observed(false, UNPROBED, Some(format!("pidfd_open answered {}: unknown", errno::name(e))));
    }
    close(pidfd);
    let answer = if exited_within(watch, 10_000) {
        observed(true, "kernel-clone3-child", None)
    } else {
        kill(watch);
        observed(
            false,
            "kernel-clone3-child",
            Some("clone3 took the flag, but closing its pidfd left the child running".to_string()),
        )
    };
    close(watch);
    answer
}
