//! What a spawn must leave unchanged in the parent: no child left unreaped, no descriptor
//! gained or lost, the same working directory, signal mask and blocked pending signals.

use std::path::PathBuf;

/// The runner's state just before spawning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baseline {
    fds: Vec<i32>,
    cwd: Option<PathBuf>,
    blocked: Vec<i32>,
    /// Pending signals the spawning thread blocks: nothing but a spawn that unblocks or
    /// consumes them can change these (an unblocked pending one is delivered at any time).
    held: Vec<i32>,
}

/// Open descriptors of this process, ascending (see [`super::sys::open_fds`]).
pub fn open_fds() -> Vec<i32> {
    super::sys::open_fds()
}

/// The calling thread's blocked signals and its pending ones (the thread's and the
/// process's), by number.
fn blocked_and_pending() -> (Vec<i32>, Vec<i32>) {
    // SAFETY: both sets are initialised before they are read.
    unsafe {
        let mut blocked: libc::sigset_t = std::mem::zeroed();
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut blocked);
        libc::sigemptyset(&mut pending);
        if libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut blocked) != 0
            || libc::sigpending(&mut pending) != 0
        {
            return (vec![-1], vec![-1]);
        }
        let members = |set: &libc::sigset_t| -> Vec<i32> {
            (1..65)
                .filter(|&s| libc::sigismember(set, s) == 1)
                .collect()
        };
        (members(&blocked), members(&pending))
    }
}

impl Baseline {
    pub fn take() -> Baseline {
        let (blocked, pending) = blocked_and_pending();
        let held = pending
            .into_iter()
            .filter(|s| blocked.contains(s))
            .collect();
        Baseline {
            fds: open_fds(),
            cwd: std::env::current_dir().ok(),
            blocked,
            held,
        }
    }

    /// Every difference from the baseline, plus any child of this process not yet reaped.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let now = Baseline::take();
        if now.fds != self.fds {
            problems.push(format!(
                "residue: the parent's open fds changed from {:?} to {:?}",
                self.fds, now.fds
            ));
        }
        if now.cwd != self.cwd {
            problems.push(format!(
                "residue: the parent's cwd changed from {:?} to {:?}",
                self.cwd, now.cwd
            ));
        }
        if now.blocked != self.blocked {
            problems.push(format!(
                "residue: the parent's signal mask changed from {:?} to {:?}",
                self.blocked, now.blocked
            ));
        }
        if now.held != self.held {
            problems.push(format!(
                "residue: the parent's blocked pending signals changed from {:?} to {:?}",
                self.held, now.held
            ));
        }
        // SAFETY: WNOHANG never blocks; a reaped pid is reported, not hidden.
        let pid = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
        let errno = std::io::Error::last_os_error().raw_os_error();
        if pid > 0 {
            problems.push(format!(
                "residue: child {pid} was left for the caller to reap"
            ));
        } else if pid == 0 {
            problems.push("residue: a child of the runner is still running".into());
        } else if errno != Some(libc::ECHILD) {
            problems.push(format!("residue: waitpid(-1) failed with {errno:?}"));
        }
        problems
    }
}
