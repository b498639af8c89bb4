//! Whether the libc's `posix_spawn` can create a process here at all and report a failed exec.
//! It creates the child its own way (glibc >= 2.34 with `clone3` and no fallback on `EPERM`,
//! then `clone` with `CLONE_VM`; musl with `clone(CLONE_VM|CLONE_VFORK)`), so a seccomp filter
//! that refuses that makes every call fail, and its `EPERM` cannot be told from an exec's.
//! Where `CLONE_VM|CLONE_VFORK` is quietly turned into a fork (valgrind, qemu-user), glibc's
//! child writes its errno into memory the parent no longer shares, and the spawn "succeeds"
//! with a child that exits 127. So it is probed once: a spawn of a path that cannot exist must
//! come back `ENOENT`; anything else is not a `posix_spawn` this crate can use.

use std::ffi::{c_char, CStr};

use crate::platform::wait::wait_pid;
use crate::strategies::learned::{Learned, Verdict};

static LEARNED: Learned = Learned::new();

const MISSING: &CStr = c"/nonexistent/spawnmatrix-posix-spawn-probe";

/// Whether `posix_spawn` works here; probes once if not yet known.
pub(crate) fn works() -> bool {
    LEARNED.works(|| probe_with(spawn_missing))
}

/// The libc's `posix_spawn` of [`MISSING`]: its return code, the pid in `pid`.
fn spawn_missing(pid: &mut libc::pid_t) -> libc::c_int {
    let argv: [*mut c_char; 2] = [MISSING.as_ptr().cast_mut(), std::ptr::null_mut()];
    let envp: [*mut c_char; 1] = [std::ptr::null_mut()];
    // SAFETY: valid NUL-terminated path and arrays; no file actions or attributes.
    unsafe {
        crate::sys::spawn_fns::posix_spawn(
            pid,
            MISSING.as_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            argv.as_ptr(),
            envp.as_ptr(),
        )
    }
}

/// What a spawn of a missing path says about the `spawn` function that made it.
fn probe_with(spawn: impl FnOnce(&mut libc::pid_t) -> libc::c_int) -> Verdict {
    let mut pid = 0;
    match spawn(&mut pid) {
        // The child ran and its exec failed: the libc reaped it and reports the errno.
        libc::ENOENT => Verdict::Works,
        // A child was made and the exec's error is lost (it exits 127): reap it. Such a
        // posix_spawn would report every failed exec as a success. A child killed by a
        // signal before its exec (a signal the caller's process group gets while the child
        // still has the default disposition: glibc then returns 0, its error slot untouched)
        // says nothing about the libc: seen under a SIGUSR1 flood on s390x under TCG.
        0 => match wait_pid(pid, 0) {
            Ok(Some(raw)) if !libc::WIFEXITED(raw) => Verdict::Inconclusive,
            _ => Verdict::Refused,
        },
        libc::EPERM | libc::ENOSYS => Verdict::Refused,
        _ => Verdict::Inconclusive,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// A libc that reports a failed exec as a child exiting 127 (glibc's under valgrind): the
    /// fake starts such a child and answers 0, and the probe must refuse it and reap it.
    #[rstest]
    // The probe itself reaps the child (checked below), which clippy cannot see.
    #[allow(clippy::zombie_processes)]
    fn a_spawn_that_loses_the_exec_error_is_refused() {
        let child = std::process::Command::new("/bin/sh")
            .args(["-c", "exit 127"])
            .spawn()
            .unwrap();
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        let v = probe_with(|out| {
            *out = pid;
            0
        });
        assert_eq!(v, Verdict::Refused);
        // Reaped by the probe: no such child any more.
        // SAFETY: waitpid with a null status pointer.
        let r = unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
        assert_eq!(r, -1);
    }

    /// A probe child that a signal killed before its exec (the caller's process group is
    /// being signalled) teaches nothing: glibc answers 0 for it, but its posix_spawn works.
    #[rstest]
    #[allow(clippy::zombie_processes)]
    fn a_probe_child_killed_by_a_signal_is_inconclusive() {
        let child = std::process::Command::new("/bin/sh")
            .args(["-c", "kill -USR1 $$"])
            .spawn()
            .unwrap();
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        let v = probe_with(|out| {
            *out = pid;
            0
        });
        assert_eq!(v, Verdict::Inconclusive);
        // SAFETY: waitpid with a null status pointer.
        let r = unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
        assert_eq!(r, -1);
    }

    #[rstest]
    #[case(libc::ENOENT, Verdict::Works)]
    #[case(libc::EPERM, Verdict::Refused)]
    #[case(libc::ENOSYS, Verdict::Refused)]
    #[case(libc::EAGAIN, Verdict::Inconclusive)]
    fn errno_answers(#[case] rc: libc::c_int, #[case] want: Verdict) {
        assert_eq!(probe_with(|_| rc), want);
    }
}
