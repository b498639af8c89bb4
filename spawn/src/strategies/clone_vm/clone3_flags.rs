//! Which of Linux 7.1's clone3 flags this kernel knows (`CLONE_NNP` so far), learned once per
//! flag with a clone3 call that creates nothing: the flag together with `CLONE_INTO_CGROUP`
//! and a cgroup fd that is not open (`INT_MAX`). The kernel checks the flags first
//! (`clone3_args_valid`: an unknown bit is `EINVAL`) and looks the cgroup fd up only late in
//! `copy_process`, so `EBADF` means the flag is known; `EINVAL` (or `E2BIG`, `ENOSYS`, a
//! seccomp filter's `EPERM`) means it cannot be used. A kernel before 5.7 does not know
//! `CLONE_INTO_CGROUP` and so answers `EINVAL`: it lacks the 7.1 flags too. The `caps` probes
//! of the same flags make real children; this one costs one failing system call.
//! `CLONE_PIDFD_AUTOKILL` is asked together with what the kernel demands of it (torvalds/linux
//! 288c8ebb and its selftest `autokill_requires_*`): `CLONE_PIDFD` and `CLONE_AUTOREAP` (else
//! `EINVAL`), no exit signal (`CLONE_AUTOREAP`'s demand) and `CLONE_NNP` (else `EPERM`
//! without `CAP_SYS_ADMIN`).

use std::sync::atomic::{AtomicU8, Ordering};

use crate::sys::linux_kernel::{
    CloneArgs, CLONE_ARGS_SIZE_VER2, CLONE_AUTOREAP, CLONE_INTO_CGROUP, CLONE_NNP,
    CLONE_PIDFD_AUTOKILL,
};

const UNKNOWN: u8 = 0;
const KNOWN: u8 = 1;
const ABSENT: u8 = 2;

static NNP: AtomicU8 = AtomicU8::new(UNKNOWN);
static AUTOKILL: AtomicU8 = AtomicU8::new(UNKNOWN);
static AUTOREAP: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether clone3 takes `CLONE_AUTOREAP` with no exit signal here (probed once).
pub(crate) fn knows_autoreap() -> bool {
    learned(&AUTOREAP, || knows(CLONE_AUTOREAP, 0))
}

/// Whether clone3 takes `CLONE_NNP` here (probed once).
pub(crate) fn knows_nnp() -> bool {
    learned(&NNP, || knows(CLONE_NNP, libc::SIGCHLD as u64))
}

/// Whether clone3 takes `CLONE_PIDFD|CLONE_PIDFD_AUTOKILL|CLONE_AUTOREAP|CLONE_NNP` with no
/// exit signal here, as the kernel demands the four together (probed once).
pub(crate) fn knows_autokill() -> bool {
    let flags = libc::CLONE_PIDFD as u64 | CLONE_PIDFD_AUTOKILL | CLONE_AUTOREAP | CLONE_NNP;
    learned(&AUTOKILL, || knows(flags, 0))
}

fn learned(cell: &AtomicU8, probe: impl FnOnce() -> bool) -> bool {
    match cell.load(Ordering::Relaxed) {
        KNOWN => true,
        ABSENT => false,
        _ => {
            let known = probe();
            cell.store(if known { KNOWN } else { ABSENT }, Ordering::Relaxed);
            known
        }
    }
}

/// One clone3 call with `flags` that the kernel refuses at the cgroup fd if it knows them.
/// With `CLONE_PIDFD` the kernel may store a pidfd before it gives up (and closes it again).
fn knows(flags: u64, exit_signal: u64) -> bool {
    let mut pidfd: libc::c_int = -1;
    let args = CloneArgs {
        flags: flags | CLONE_INTO_CGROUP,
        pidfd: std::ptr::addr_of_mut!(pidfd) as usize as u64,
        exit_signal,
        cgroup: libc::c_int::MAX as u64,
        ..CloneArgs::default()
    };
    // SAFETY: clone3 with fork semantics (no CLONE_VM, no stack): every kernel refuses it at
    // the cgroup fd or earlier. Should one create a child after all, that child leaves at once.
    let rc = unsafe { libc::syscall(libc::SYS_clone3, &args as *const CloneArgs, CLONE_ARGS_SIZE_VER2) };
    match rc {
        // SAFETY: in a child no kernel should have made: _exit is async-signal-safe.
        0 => unsafe { libc::_exit(0) },
        -1 => std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF),
        pid => {
            // A kernel that ignored the fd made a child: reap it (with no exit signal it
            // may be reaped already); the flags were taken.
            let mut status = 0;
            // SAFETY: waits for the child just made, by its pid; closes the pidfd it made.
            unsafe {
                libc::waitpid(pid as libc::pid_t, &mut status, libc::__WALL);
                if pidfd >= 0 {
                    libc::close(pidfd);
                }
            }
            true
        }
    }
}

#[cfg(test)]
mod tests {
    /// The one-call answer agrees with the `caps` probe, which makes a real clone3 child
    /// with `CLONE_NNP` and has it read its own flag.
    #[test]
    fn the_cheap_probe_agrees_with_the_child_probe() {
        let caps = crate::caps::detect();
        let Some(nnp) = caps.get("CLONE_NNP") else {
            panic!("caps has no CLONE_NNP row");
        };
        if nnp.how == crate::caps::REFUSED || nnp.how == crate::caps::UNPROBED {
            println!("skipped: the caps probe could not tell ({})", nnp.how);
            return;
        }
        assert_eq!(super::knows_nnp(), nnp.available, "caps: {nnp:?}");
        let autoreap = &caps["CLONE_AUTOREAP"];
        if autoreap.how != crate::caps::REFUSED && autoreap.how != crate::caps::UNPROBED {
            assert_eq!(super::knows_autoreap(), autoreap.available, "caps: {autoreap:?}");
        }
        let autokill = &caps["CLONE_PIDFD_AUTOKILL"];
        if autokill.how != crate::caps::REFUSED && autokill.how != crate::caps::UNPROBED {
            assert_eq!(super::knows_autokill(), autokill.available, "caps: {autokill:?}");
        }
    }
}
