//! What a failed `CommandExt::exec` puts back. `exec` runs the child's steps in this process
//! itself, so each step that fails to lead to `execve` would leave the process changed. Saved
//! before the steps and put back after a failure: the working directory, the umask, the soft
//! and hard resource limits (a hard limit lowered comes back only with `CAP_SYS_RESOURCE`),
//! the process group (unless a new session was started), the terminal's foreground group,
//! the parent-death signal, the dispositions the exec reset (`SIGPIPE` and `reset_signals`)
//! and the calling thread's signal mask. What cannot be put back: a new session (`setsid`,
//! and with it the controlling terminal, which only a session leader takes), the ids, a hard
//! limit lowered without the privilege to raise it, and what `pre_exec` closures did.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use crate::plan::Prepared;
use crate::platform;

/// The process state a failed exec puts back.
pub(super) struct Saved {
    cwd: Option<OwnedFd>,
    umask: Option<libc::mode_t>,
    rlimits: Vec<(libc::c_int, libc::rlimit)>,
    pgrp: Option<libc::pid_t>,
    foreground: Option<(libc::c_int, libc::pid_t)>,
    pdeathsig: Option<libc::c_int>,
    dispositions: Vec<(libc::c_int, libc::sigaction)>,
    mask: libc::sigset_t,
}

impl Saved {
    /// Saves what `p` will change; `mask` is the calling thread's mask now. The umask is set
    /// to the new one at once (reading it means setting it): the steps set the same.
    pub(super) fn new(p: &Prepared, mask: libc::sigset_t) -> Saved {
        let chdirs = p.cwd_path.is_some() || p.cwd_fd.is_some();
        let cwd = chdirs.then(open_cwd).flatten();
        // SAFETY: umask cannot fail; it returns the old mask.
        let umask = p.umask.map(|new| unsafe { libc::umask(new) });
        let rlimits = p
            .rlimits
            .iter()
            .filter_map(|r| {
                // SAFETY: an all-zero rlimit is valid; getrlimit fills it.
                let mut old: libc::rlimit = unsafe { std::mem::zeroed() };
                // SAFETY: a query of one resource into a local struct.
                let rc = unsafe { libc::getrlimit(r.resource as _, &mut old) };
                (rc == 0).then_some((r.resource, old))
            })
            .collect();
        // SAFETY: getpgrp cannot fail.
        let pgrp = (p.pgid.is_some() && !p.setsid).then(|| unsafe { libc::getpgrp() });
        let foreground = p.foreground.and_then(|tty| {
            // SAFETY: a query on an fd the command holds.
            let g = unsafe { libc::tcgetpgrp(tty) };
            (g > 0).then_some((tty, g))
        });
        let pdeathsig = p.pdeathsig.and_then(|_| platform::parent_death_signal());
        let dispositions = p
            .default_signals
            .iter()
            .filter_map(|&sig| {
                // SAFETY: an all-zero sigaction is valid; the query fills it.
                let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
                // SAFETY: a query of one signal's action.
                let rc = unsafe { libc::sigaction(sig, std::ptr::null(), &mut old) };
                (rc == 0).then_some((sig, old))
            })
            .collect();
        Saved {
            cwd,
            umask,
            rlimits,
            pgrp,
            foreground,
            pdeathsig,
            dispositions,
            mask,
        }
    }

    /// Puts everything back that can be, with every signal blocked until the mask is the
    /// saved one again (so `tcsetpgrp` from a background group is not stopped by `SIGTTOU`).
    /// Best effort: a step that fails here leaves that one thing as the exec made it.
    pub(super) fn restore(self) {
        // SAFETY: each call restores a value saved above, on this process or this thread;
        // none can break memory safety, and failures are left as they are.
        unsafe {
            let mut all: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_BLOCK, &all, std::ptr::null_mut());
            if let Some(fd) = &self.cwd {
                libc::fchdir(fd.as_raw_fd());
            }
            if let Some(old) = self.umask {
                libc::umask(old);
            }
            for (resource, old) in &self.rlimits {
                libc::setrlimit(*resource as _, old);
            }
            if let Some(g) = self.pgrp {
                libc::setpgid(0, g);
            }
            if let Some((tty, g)) = self.foreground {
                libc::tcsetpgrp(tty, g);
            }
            if let Some(sig) = self.pdeathsig {
                platform_set_pdeathsig(sig);
            }
            for (sig, old) in &self.dispositions {
                libc::sigaction(*sig, old, std::ptr::null_mut());
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &self.mask, std::ptr::null_mut());
        }
    }
}

/// The working directory, as an fd to come back to (`None` where it cannot be opened).
fn open_cwd() -> Option<OwnedFd> {
    // SAFETY: opens "." read-only as a directory, close-on-exec.
    let fd = unsafe {
        libc::open(
            c".".as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    // SAFETY: a new fd nobody else owns.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Sets this process's parent-death signal back (to 0: none).
fn platform_set_pdeathsig(sig: libc::c_int) {
    // SAFETY: getppid cannot fail; the set compares it with itself, so it never signals.
    unsafe { crate::child_side::calls::set_parent_death_signal(sig, libc::getppid()) };
}
