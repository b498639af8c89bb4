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
//!
//! A probe that fails for want of resources (`EAGAIN`: a process limit; `EMFILE`/`ENFILE`: an
//! fd limit; `ENOMEM`; `EINTR`) learned nothing about the kernel: the feature is reported as
//! `kernel-probe-failed` (unknown), never as absent.

use std::ffi::c_long;
use std::io;

use super::{observed, Capability, PROBE_FAILED};
use crate::sys::errno;
use crate::sys::linux_kernel::{CloneArgs, CLONE_CLEAR_SIGHAND};

pub(super) fn detect() -> Vec<(String, Capability)> {
    let clone3 = clone3();
    let clear_sighand = if clone3.available {
        clear_sighand()
    } else {
        observed(false, "kernel-syscall", Some("needs clone3".to_string()))
    };
    let mut caps = vec![
        ("clone3".to_string(), clone3),
        ("CLONE_CLEAR_SIGHAND".to_string(), clear_sighand),
        ("pidfd_open".to_string(), pidfd_open()),
        ("close_range".to_string(), close_range()),
    ];
    #[cfg(target_os = "linux")]
    caps.push(("crate.clone3".to_string(), crate_clone3()));
    caps
}

/// Whether this crate can call clone3 on the target architecture (it needs a trampoline),
/// apart from whether the kernel has it (`clone3` above).
#[cfg(target_os = "linux")]
fn crate_clone3() -> Capability {
    let has = crate::linux::CLONE3_TRAMPOLINE;
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
    let args = CloneArgs {
        flags: CLONE_CLEAR_SIGHAND,
        exit_signal: libc::SIGCHLD as u64,
        ..CloneArgs::default()
    };
    // SAFETY: without CLONE_VM this is a fork: the child has its own copy of memory and only
    // calls _exit (async-signal-safe), so other threads' locks cannot matter.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone3,
            &args as *const CloneArgs,
            crate::sys::linux_kernel::CLONE_ARGS_SIZE_VER0,
        )
    };
    if pid == 0 {
        // SAFETY: in the child; ends it at once.
        unsafe { libc::_exit(0) }
    }
    if pid == -1 {
        let e = last_errno();
        if transient(e) {
            return probe_failed(e);
        }
        let note = (e != libc::EINVAL).then(|| format!("clone3 answered {}", errno::name(e)));
        return observed(false, "kernel-clone3-child", note);
    }
    match reap(pid) {
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

fn pidfd_open() -> Capability {
    // SAFETY: pidfd_open on our own pid; the returned fd is closed below.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) };
    if fd == -1 {
        let e = last_errno();
        if transient(e) {
            return probe_failed(e);
        }
        return observed(false, "kernel-syscall", Some(errno::name(e)));
    }
    // SAFETY: closes the fd just opened, which nothing else knows about.
    let closed = unsafe { libc::close(fd as libc::c_int) };
    let note = (closed != 0).then(|| format!("close failed: {}", errno::name(last_errno())));
    observed(true, "kernel-syscall", note)
}

fn close_range() -> Capability {
    let top = libc::c_uint::MAX;
    // SAFETY: closes fd number 2^32-1 at most, which cannot be open.
    let rc = unsafe { libc::syscall(libc::SYS_close_range, top, top, 0 as libc::c_uint) };
    if rc == -1 {
        return observed(false, "kernel-syscall", Some(errno::name(last_errno())));
    }
    observed(true, "kernel-syscall", None)
}
