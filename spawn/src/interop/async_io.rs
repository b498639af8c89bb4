//! The `async-io` feature: a spawned child on async-io's reactor, for any executor
//! (smol, async-std, `futures_lite::future::block_on`). Waiting registers the child's
//! [`ExitNotifier`](crate::ExitNotifier) with the reactor, so no thread blocks and no
//! `SIGCHLD` handler is installed; the piped stdio becomes `Async` pipes. Spawning itself is
//! the crate's own (every strategy, every promise), then handed over.
//!
//! ```
//! use spawnmatrix_spawn::Command;
//!
//! let out = futures_lite::future::block_on(spawnmatrix_spawn::async_io::output(
//!     Command::new("echo").arg("hi"),
//! ))?;
//! assert_eq!(out.stdout, b"hi\n");
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io;
use std::process::{ChildStderr, ChildStdin, ChildStdout};

use ::async_io::Async;
use futures_lite::{future, AsyncRead, AsyncReadExt};

use super::async_adopt::{Adopted, Reactor};
use crate::{Command, ExitNotifier, ExitStatus, Output};

/// A child whose exit and stdio are awaited on async-io's reactor.
#[derive(Debug)]
pub struct Child {
    inner: crate::Child,
    exit: Async<ExitNotifier>,
    /// The writing end of the child's stdin, if piped (`AsyncWrite`).
    pub stdin: Option<Async<ChildStdin>>,
    /// The reading end of the child's stdout, if piped (`AsyncRead`).
    pub stdout: Option<Async<ChildStdout>>,
    /// The reading end of the child's stderr, if piped (`AsyncRead`).
    pub stderr: Option<Async<ChildStderr>>,
}

/// The exit and the ends on async-io's reactor.
const REACTOR: Reactor<Async<ExitNotifier>, Async<ChildStdin>, Async<ChildStdout>, Async<ChildStderr>> =
    Reactor {
        exit: register,
        stdin: Async::new,
        stdout: Async::new,
        stderr: Async::new,
    };

type Taken =
    Adopted<Async<ExitNotifier>, Async<ChildStdin>, Async<ChildStdout>, Async<ChildStderr>>;

impl From<Taken> for Child {
    fn from(a: Taken) -> Child {
        Child {
            inner: a.child,
            exit: a.exit,
            stdin: a.stdin,
            stdout: a.stdout,
            stderr: a.stderr,
        }
    }
}

/// `child`'s exit notifier on the reactor. It is left in blocking mode (`new_nonblocking`
/// only registers): it is polled, never read, and on Linux it shares its open file with the
/// child's pidfd, whose `PidFd::wait` would fail with `EAGAIN` on a non-blocking one.
fn register(child: &mut crate::Child) -> io::Result<Async<ExitNotifier>> {
    Async::new_nonblocking(child.exit_notifier()?)
}

impl Child {
    /// Takes over a spawned child: its exit notifier goes to the reactor and its piped ends
    /// become non-blocking. `Unsupported` where the platform has no pollable exit (see
    /// [`crate::Child::exit_notifier`]). On any error the child is killed and reaped before
    /// it returns, so nothing runs on unseen and no zombie is left.
    pub fn new(child: crate::Child) -> io::Result<Child> {
        REACTOR.adopt_or_end(child).map(Child::from)
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.inner.id()
    }

    /// The synchronous child (its `kill`, `try_wait`, `strategy`).
    pub fn inner(&mut self) -> &mut crate::Child {
        &mut self.inner
    }

    /// Closes stdin, then waits for the exit without blocking a thread, and reaps it.
    pub async fn wait(&mut self) -> io::Result<ExitStatus> {
        drop(self.stdin.take());
        loop {
            if let Some(s) = self.inner.try_wait()? {
                return Ok(s);
            }
            self.exit.readable().await?;
        }
    }

    /// Closes stdin, reads stdout and stderr to their ends together, then waits.
    pub async fn wait_with_output(mut self) -> io::Result<Output> {
        drop(self.stdin.take());
        let (stdout, stderr) =
            future::zip(read_all(self.stdout.take()), read_all(self.stderr.take())).await;
        let status = self.wait().await?;
        Ok(Output {
            status,
            stdout: stdout?,
            stderr: stderr?,
        })
    }
}

/// [`Command::output`] on the reactor: stdout and stderr captured, stdin `/dev/null` unless
/// set. Where the child has no exit notifier (see [`crate::Child::exit_notifier`]) it is
/// waited for on a thread of its own, so the program still runs once and is reaped.
pub async fn output(command: &mut Command) -> io::Result<Output> {
    let child = command.spawn_for_output()?;
    REACTOR.output(child, |a| Child::from(a).wait_with_output()).await
}

/// Everything `end` yields (nothing for no end).
async fn read_all<R: AsyncRead + Unpin>(end: Option<R>) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if let Some(mut r) = end {
        r.read_to_end(&mut buf).await?;
    }
    Ok(buf)
}
