//! What a spawn must leave unchanged in the parent: no child left unreaped, no descriptor
//! gained or lost, the same working directory and signal mask.

use std::path::PathBuf;

/// The runner's state just before spawning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baseline {
    fds: Vec<i32>,
    cwd: Option<PathBuf>,
    blocked: Vec<i32>,
}

/// Open descriptors of this process, ascending (see [`super::sys::open_fds`]).
pub fn open_fds() -> Vec<i32> {
    super::sys::open_fds()
}

/// The calling thread's blocked signals, by number.
fn blocked_signals() -> Vec<i32> {
    // SAFETY: the set is initialised by pthread_sigmask before it is read.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        if libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut set) != 0 {
            return vec![-1];
        }
        (1..65)
            .filter(|&s| libc::sigismember(&set, s) == 1)
            .collect()
    }
}

impl Baseline {
    pub fn take() -> Baseline {
        Baseline {
            fds: open_fds(),
            cwd: std::env::current_dir().ok(),
            blocked: blocked_signals(),
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
