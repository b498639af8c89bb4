//! What both event-loop adapters do to take over a spawned child: its exit notifier goes to
//! the reactor first (the step that can fail for want of one), then its piped ends. A child
//! that cannot be taken over is never left behind: `Child::new` kills it and the reaper
//! thread reaps it, `output` waits for it on a thread instead.

use std::io;
use std::process::{ChildStderr, ChildStdin, ChildStdout};

use super::async_thread::on_thread;
use crate::Child;

/// A child taken over: the registered exit `E`, and the converted ends.
pub(super) struct Adopted<E, I, O, R> {
    pub(super) child: Child,
    pub(super) exit: E,
    pub(super) stdin: Option<I>,
    pub(super) stdout: Option<O>,
    pub(super) stderr: Option<R>,
}

/// Why a spawned child was not taken over: still whole, for want of an exit notifier (or a
/// runtime); or already given up after a later step failed.
pub(super) enum NotAdopted {
    Whole(Child, io::Error),
    GivenUp(io::Error),
}

/// How one adapter registers the exit and converts each end.
pub(super) struct Reactor<E, I, O, R> {
    pub(super) exit: fn(&mut Child) -> io::Result<E>,
    pub(super) stdin: fn(ChildStdin) -> io::Result<I>,
    pub(super) stdout: fn(ChildStdout) -> io::Result<O>,
    pub(super) stderr: fn(ChildStderr) -> io::Result<R>,
}

impl<E, I, O, R> Reactor<E, I, O, R> {
    /// Takes `child` over.
    pub(super) fn adopt(&self, mut child: Child) -> Result<Adopted<E, I, O, R>, NotAdopted> {
        // Dropped unwaited, from here on, it goes to the reaper, as tokio's and
        // async-process's dropped children do: not killed, and no zombie once it exits.
        child.reap_on_drop(true);
        let exit = match (self.exit)(&mut child) {
            Ok(exit) => exit,
            Err(e) => return Err(NotAdopted::Whole(child, e)),
        };
        let stdin = child.stdin.take().map(self.stdin).transpose();
        let stdout = child.stdout.take().map(self.stdout).transpose();
        let stderr = child.stderr.take().map(self.stderr).transpose();
        match (stdin, stdout, stderr) {
            (Ok(stdin), Ok(stdout), Ok(stderr)) => Ok(Adopted {
                child,
                exit,
                stdin,
                stdout,
                stderr,
            }),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                give_up(child);
                Err(NotAdopted::GivenUp(e))
            }
        }
    }

    /// `Child::new`: the child taken over, or an error once it is given up.
    pub(super) fn adopt_or_end(&self, child: Child) -> io::Result<Adopted<E, I, O, R>> {
        self.adopt(child).map_err(|n| match n {
            NotAdopted::Whole(child, e) => {
                give_up(child);
                e
            }
            NotAdopted::GivenUp(e) => e,
        })
    }

    /// `output` and `status`: through the reactor (`wait`), or with `blocking` on a thread
    /// where the child has no exit notifier, so the program runs once and is reaped either way.
    pub(super) async fn finish<T, F>(
        &self,
        child: Child,
        wait: impl FnOnce(Adopted<E, I, O, R>) -> F,
        blocking: impl FnOnce(Child) -> io::Result<T> + Send + 'static,
    ) -> io::Result<T>
    where
        T: Send + 'static,
        F: std::future::Future<Output = io::Result<T>>,
    {
        match self.adopt(child) {
            Ok(adopted) => wait(adopted).await,
            Err(NotAdopted::Whole(child, _)) => on_thread(move || blocking(child)).await,
            Err(NotAdopted::GivenUp(e)) => Err(e),
        }
    }
}

/// Ends a child that could not be taken over: killed, then reaped by the reaper thread, so
/// nothing runs on unseen, no zombie is left and nothing blocks here (a kill can fail with
/// `EPERM`, for a child that ran a setuid program).
pub(super) fn give_up(mut child: Child) {
    // A failed kill means it has ended already or cannot be killed; it is reaped either way
    // (`adopt` set reap_on_drop).
    let _ = child.kill();
}
