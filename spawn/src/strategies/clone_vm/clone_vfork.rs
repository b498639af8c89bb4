//! `clone(CLONE_VM|CLONE_VFORK)`: the parent sleeps until the child execs or exits; the child
//! resets caught signals itself (one `rt_sigaction` query per signal). A seccomp filter may
//! refuse `CLONE_VM` (`EPERM`, or `EINVAL` in some sandboxes) or `clone` itself (`ENOSYS`), and valgrind or qemu-user run it
//! as a plain fork (the probe's sentinel never arrives): that is learned once (probed before
//! the first spawn, or from a real call) and remembered, so `Auto` goes on to the next
//! strategy and a forced `CloneVfork` is `Unsupported`.
//!
//! A pidfd is taken with `CLONE_PIDFD` (Linux 5.2+), which the legacy call returns through
//! its `parent_tid` argument (so `CLONE_PARENT_SETTID` is never set with it).

use std::ffi::c_void;
use std::io;

use super::stack::Stack;
use super::parent;
use crate::child_side::vm_entry::{clone_main, clone_probe_main};
use crate::strategies::Spawned;
use crate::platform::errno::errno;
use crate::strategies::learned::{Learned, Verdict};
use crate::plan::Prepared;

const FLAGS: libc::c_int = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;

static LEARNED: Learned = Learned::new();

/// Whether `clone(CLONE_VM|CLONE_VFORK)` works here; probes once if not yet known.
pub(crate) fn works() -> bool {
    LEARNED.works(probe)
}

/// Spawns with `clone(CLONE_VM|CLONE_VFORK)`; `Ok(None)` if it is refused here (now
/// remembered). The caller has checked that the strategy may run at all.
pub(crate) fn clone_vfork(p: &mut Prepared) -> io::Result<Option<Spawned>> {
    if !works() {
        return Ok(None);
    }
    let r = parent::spawn(p, true, &LEARNED, |stack, arg, pidfd| {
        call(stack, clone_main, arg, pidfd)
    })?;
    LEARNED.outcome(r, verdict)
}

/// One clone call on `stack`: the pid, or the errno of the call itself. A non-null `pidfd`
/// adds `CLONE_PIDFD`, the kernel storing the pidfd there.
fn call(
    stack: &Stack,
    entry: extern "C" fn(*mut c_void) -> libc::c_int,
    arg: *mut c_void,
    pidfd: *mut libc::c_int,
) -> Result<libc::pid_t, libc::c_int> {
    let flags = match pidfd.is_null() {
        true => FLAGS,
        false => FLAGS | libc::CLONE_PIDFD,
    };
    let no_tls = std::ptr::null_mut::<c_void>();
    let no_ctid = std::ptr::null_mut::<libc::pid_t>();
    // SAFETY: a private stack, an entry that never returns, and `arg` alive throughout;
    // parent_tid is read by the kernel only with CLONE_PIDFD (no CLONE_PARENT_SETTID), tls
    // and child_tid not at all (no CLONE_SETTLS, CLONE_CHILD_*).
    match unsafe { libc::clone(entry, stack.top(), flags, arg, pidfd, no_tls, no_ctid) } {
        -1 => Err(errno()),
        pid => Ok(pid),
    }
}

/// `ENOSYS`, `EPERM` and `EINVAL` from the clone call itself refuse it; anything else
/// (`EAGAIN`, `ENOMEM`) is the spawn's error. `EINVAL` is what some sandboxes answer for
/// `CLONE_VM|CLONE_VFORK` (gVisor-style kernels, seccomp filters choosing it; CPython met it,
/// cpython#91307, and falls back to fork): the flags are valid for every Linux, so `EINVAL`
/// means this environment will not do it.
fn verdict(errno: libc::c_int) -> Verdict {
    match errno {
        libc::ENOSYS | libc::EPERM | libc::EINVAL => Verdict::Refused,
        _ => Verdict::Inconclusive,
    }
}

/// Finds out whether the call works and shares memory, with a child that writes the
/// sentinel and exits at once.
fn probe() -> Verdict {
    parent::probe(
        |stack, arg| call(stack, clone_probe_main, arg, std::ptr::null_mut()),
        verdict,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::no_syscall(libc::ENOSYS, Verdict::Refused)]
    #[case::seccomp_eperm(libc::EPERM, Verdict::Refused)]
    #[case::sandbox_einval(libc::EINVAL, Verdict::Refused)]
    #[case::no_memory(libc::ENOMEM, Verdict::Inconclusive)]
    #[case::process_limit(libc::EAGAIN, Verdict::Inconclusive)]
    fn clone_errnos_are_classified(#[case] errno: libc::c_int, #[case] want: Verdict) {
        assert_eq!(verdict(errno), want);
    }

    #[test]
    fn einval_is_remembered_as_a_refusal() {
        let l = Learned::new();
        let r = l.outcome::<()>(Err(libc::EINVAL), verdict);
        assert!(matches!(r, Ok(None)), "EINVAL is a refusal, not the spawn's error");
        assert!(!l.maybe(), "and it is remembered");
        let mut probed = false;
        assert!(!l.works(|| {
            probed = true;
            Verdict::Works
        }));
        assert!(!probed, "no probe runs once it is known");
    }
}
