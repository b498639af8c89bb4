//! Waiting for a started child with a timeout, the same way for every subject.

use std::io;
use std::time::{Duration, Instant};

use crate::conformance::names;
use crate::conformance::outcome::Outcome;

/// A started child.
pub trait Running: Send {
    /// The raw wait status once the child has exited and been reaped.
    fn try_wait(&mut self) -> io::Result<Option<i32>>;
    fn kill(&mut self);
    /// The pid the spawn call returned, when it returned one.
    fn pid(&self) -> Option<i32>;
}

/// Waits up to `limit`; on timeout kills and reaps the child and says so in the error.
pub fn wait_with_timeout(child: &mut dyn Running, limit: Duration) -> Result<Outcome, String> {
    let deadline = Instant::now() + limit;
    let mut pause = Duration::from_micros(50);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status_outcome(status)),
            Ok(None) => {}
            Err(e) => return Err(format!("waiting for the child: {e}")),
        }
        if Instant::now() > deadline {
            child.kill();
            let reaped = child.try_wait();
            return Err(format!(
                "the child did not exit within {limit:?}; killed ({reaped:?})"
            ));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// The outcome a raw wait status stands for.
pub fn status_outcome(status: i32) -> Outcome {
    if libc::WIFEXITED(status) {
        match libc::WEXITSTATUS(status) {
            0 => Outcome::Ok,
            n => Outcome::ChildExit(n as u8),
        }
    } else if libc::WIFSIGNALED(status) {
        Outcome::ChildSignal(names::signal_name(libc::WTERMSIG(status)))
    } else {
        Outcome::Skipped(format!("wait-status-{status}"))
    }
}

/// Defines `$name`, a [`Running`] around a `Command`-style child whose exit status has
/// `into_raw`.
macro_rules! running_child {
    ($name:ident, $child:ty) => {
        pub struct $name(pub $child);

        impl $crate::conformance::subject::Running for $name {
            fn try_wait(&mut self) -> std::io::Result<Option<i32>> {
                Ok(self.0.try_wait()?.map(|s| s.into_raw()))
            }

            fn kill(&mut self) {
                let _ = self.0.kill();
            }

            fn pid(&self) -> Option<i32> {
                i32::try_from(self.0.id()).ok()
            }
        }
    };
}
pub(crate) use running_child;

/// A child known by pid (or any child, for `-1`), reaped with `waitpid`.
pub struct Pid(pub libc::pid_t);

impl Running for Pid {
    fn try_wait(&mut self) -> io::Result<Option<i32>> {
        let mut status = 0;
        // SAFETY: WNOHANG; `status` is a local.
        match unsafe { libc::waitpid(self.0, &mut status, libc::WNOHANG) } {
            0 => Ok(None),
            n if n > 0 => Ok(Some(status)),
            _ => Err(io::Error::last_os_error()),
        }
    }

    fn kill(&mut self) {
        if self.0 > 0 {
            // SAFETY: our own unreaped child, so the pid cannot have been reused.
            unsafe { libc::kill(self.0, libc::SIGKILL) };
        }
    }

    fn pid(&self) -> Option<i32> {
        (self.0 > 0).then_some(self.0)
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::status_outcome;
    use crate::conformance::outcome::Outcome;

    #[rstest]
    #[case(0, Outcome::Ok)]
    #[case(127 << 8, Outcome::ChildExit(127))]
    #[case(libc::SIGUSR1, Outcome::ChildSignal("SIGUSR1".into()))]
    fn statuses(#[case] status: i32, #[case] outcome: Outcome) {
        assert_eq!(status_outcome(status), outcome);
    }
}
