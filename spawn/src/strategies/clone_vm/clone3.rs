//! `clone3(CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND)` (Linux 5.5+): the kernel resets caught
//! signals, so the child runs no per-signal loop. There is no libc wrapper: a small per-arch
//! trampoline makes the call and, in the child, jumps straight to the entry on its own stack.
//! Kernels without it answer `ENOSYS` (before 5.3) or `EINVAL` (5.3 and 5.4 lack
//! `CLONE_CLEAR_SIGHAND`); seccomp filters answer `ENOSYS` (current Docker/podman) or `EPERM`
//! (older Docker/containerd, RHEL 8). Any of those is remembered as "refused": `Auto` goes on
//! to `clone_vfork` from then on, and a forced `Clone3` is `Unsupported`. So is a clone3 that
//! runs as a plain fork (an emulator's: the probe's sentinel never arrives). A pidfd is taken
//! with `CLONE_PIDFD` in the same call, and `no_new_privs` with `CLONE_NNP` where the kernel
//! knows it (Linux 7.1, `clone3_flags.rs`; the child's `prctl` otherwise). A
//! `kill_on_parent_death` child with `no_new_privs` becomes
//! `CLONE_PIDFD_AUTOKILL|CLONE_AUTOREAP|CLONE_NNP` with no exit signal where the kernel knows
//! those (7.1): SIGKILLed by the kernel when its pidfd (the `Child`'s) is closed. A
//! `spawn_detached` child becomes `CLONE_AUTOREAP` where the kernel knows it: no zombie.

use std::ffi::c_void;
use std::io;

use super::parent;
use crate::child_side::vm_entry::{child_main, probe_main};
use crate::platform::clone3::{raw_clone3, Entry};
use crate::strategies::Spawned;
use crate::strategies::learned::{Learned, Verdict};
use crate::plan::Prepared;
use crate::sys::linux_kernel::{
    CloneArgs, CLONE_ARGS_SIZE_VER0, CLONE_ARGS_SIZE_VER2, CLONE_CLEAR_SIGHAND, CLONE_INTO_CGROUP,
    CLONE_AUTOREAP, CLONE_NNP, CLONE_PIDFD_AUTOKILL,
};

const FLAGS: u64 = libc::CLONE_VM as u64 | libc::CLONE_VFORK as u64 | CLONE_CLEAR_SIGHAND;

static LEARNED: Learned = Learned::new();

/// Whether clone3 works here; probes once (a child that exits at once) if not yet known.
pub(crate) fn clone3_supported() -> bool {
    LEARNED.works(probe)
}

/// False only once clone3 is known not to work (no probe).
pub(crate) fn clone3_maybe_supported() -> bool {
    LEARNED.maybe()
}

/// Spawns with clone3; `Ok(None)` if clone3 is refused here (now remembered). Probes first
/// if nothing is known yet, so a fork-like clone3 is never trusted with an error report.
pub(crate) fn clone3(p: &mut Prepared) -> io::Result<Option<Spawned>> {
    if !clone3_supported() {
        return Ok(None);
    }
    let cgroup = p.cgroup;
    let autokill = p.autokill_allowed && p.want_pidfd && super::clone3_flags::knows_autokill();
    let autoreap = !autokill && p.autoreap_allowed && super::clone3_flags::knows_autoreap();
    let extra = match (autokill, autoreap) {
        (true, _) => CLONE_PIDFD_AUTOKILL | CLONE_AUTOREAP | CLONE_NNP,
        (false, true) => CLONE_AUTOREAP | extra_flags(p.no_new_privs, super::clone3_flags::knows_nnp),
        (false, false) => extra_flags(p.no_new_privs, super::clone3_flags::knows_nnp),
    };
    p.nnp_by_clone = extra & CLONE_NNP != 0;
    p.autokill_by_clone = autokill;
    let r = parent::spawn(p, false, &LEARNED, |stack, arg, pidfd| {
        call_with(stack, child_main, arg, pidfd, cgroup, extra)
    });
    p.nnp_by_clone = false;
    p.autokill_by_clone = false;
    let r = r.map(|r| {
        r.map(|s| Spawned {
            autoreaped: extra & CLONE_AUTOREAP != 0,
            ..s
        })
    })?;
    // With a cgroup, an error is about the cgroup (the probe has shown clone3 itself works):
    // EINVAL there is a kernel before 5.7 or a bad fd, and must not refuse clone3 for good.
    // So with a 7.1 flag (the kernel said it knows it, but a filter may still differ).
    match (cgroup, extra) {
        (None, 0) => LEARNED.outcome(r, verdict),
        _ => LEARNED.outcome(r, |_| Verdict::Inconclusive),
    }
}

/// The 7.1 flags the call adds: `CLONE_NNP` for `no_new_privs` where `knows_nnp` says the
/// kernel has it (asked only then).
fn extra_flags(no_new_privs: bool, knows_nnp: impl FnOnce() -> bool) -> u64 {
    match no_new_privs && knows_nnp() {
        true => CLONE_NNP,
        false => 0,
    }
}

/// What an errno from the clone3 call itself says: `ENOSYS`, `EPERM` (seccomp) and `EINVAL`
/// (unknown flag) refuse clone3; anything else (`EAGAIN`, `ENOMEM`...) is the spawn's error.
fn verdict(errno: libc::c_int) -> Verdict {
    match errno {
        libc::ENOSYS | libc::EPERM | libc::EINVAL => Verdict::Refused,
        _ => Verdict::Inconclusive,
    }
}

/// One clone3 call on `stack` with `arg` for the entry; a non-null `pidfd` adds
/// `CLONE_PIDFD`, the kernel storing the pidfd there; a `cgroup` fd adds `CLONE_INTO_CGROUP`.
fn call_with(
    stack: &super::stack::Stack,
    entry: Entry,
    arg: *mut c_void,
    pidfd: *mut libc::c_int,
    cgroup: Option<libc::c_int>,
    extra: u64,
) -> Result<libc::pid_t, libc::c_int> {
    let pidfd_flag = match pidfd.is_null() {
        true => 0,
        false => libc::CLONE_PIDFD as u64,
    };
    let (cgroup_flag, cgroup_fd, size) = match cgroup.map(u64::try_from) {
        None => (0, 0, CLONE_ARGS_SIZE_VER0),
        Some(Ok(fd)) => (CLONE_INTO_CGROUP, fd, CLONE_ARGS_SIZE_VER2),
        Some(Err(_)) => return Err(libc::EBADF),
    };
    let args = CloneArgs {
        flags: FLAGS | pidfd_flag | cgroup_flag | extra,
        cgroup: cgroup_fd,
        pidfd: pidfd as usize as u64,
        // CLONE_AUTOREAP demands no exit signal: nobody waits for the child.
        exit_signal: match extra & CLONE_AUTOREAP {
            0 => libc::SIGCHLD as u64,
            _ => 0,
        },
        stack: stack.base() as u64,
        stack_size: stack.len() as u64,
        ..CloneArgs::default()
    };
    // SAFETY: valid args on a private stack; the entry never returns.
    let rc = unsafe { raw_clone3(&args, size, entry, arg) };
    match libc::pid_t::try_from(rc) {
        Ok(pid) if pid > 0 => Ok(pid),
        _ => Err(libc::c_int::try_from(-rc).unwrap_or(libc::EINVAL)),
    }
}

/// Finds out whether clone3 works and shares memory, with a child that writes the sentinel
/// and exits at once.
fn probe() -> Verdict {
    parent::probe(
        |stack, arg| call_with(stack, probe_main, arg, std::ptr::null_mut(), None, 0),
        verdict,
    )
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::{extra_flags, CLONE_NNP};

    #[rstest]
    #[case::asked_and_known(true, true, CLONE_NNP)]
    #[case::asked_not_known(true, false, 0)]
    #[case::not_asked(false, true, 0)]
    fn clone_nnp_is_passed_only_when_asked_and_known(
        #[case] asked: bool,
        #[case] known: bool,
        #[case] want: u64,
    ) {
        assert_eq!(extra_flags(asked, || known), want);
    }

    #[test]
    fn the_kernel_is_not_asked_without_no_new_privs() {
        assert_eq!(extra_flags(false, || panic!("probed for nothing")), 0);
    }
}
