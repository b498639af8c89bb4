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

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};

use ::async_io::Async;
use futures_lite::{future, AsyncRead, AsyncReadExt};

use super::async_adopt::{Adopted, Reactor};
use crate::platform::errno::check;
use crate::{Command, ExitNotifier, ExitStatus, Output, Stdio};

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

    /// The child's process id, as async-process's `Child::id` (a `u32`, also after the wait;
    /// tokio's adapter follows tokio and gives `None` then). Once the child has been waited
    /// for the pid may be another process's.
    pub fn id(&self) -> u32 {
        self.inner.id()
    }

    /// Sends `SIGKILL` without waiting, as async-process's `kill` (which is not async either:
    /// await [`status`](Self::status) after it for the exit). `Ok` and no signal once the
    /// child has been waited for (see [`crate::Child::kill`]).
    pub fn kill(&mut self) -> io::Result<()> {
        self.inner.kill()
    }

    /// The status if the child has ended, without waiting (async-process's `try_status`).
    pub fn try_status(&mut self) -> io::Result<Option<ExitStatus>> {
        self.inner.try_wait()
    }

    /// [`wait`](Self::wait) under async-process's name for it.
    pub async fn status(&mut self) -> io::Result<ExitStatus> {
        self.wait().await
    }

    /// [`wait_with_output`](Self::wait_with_output) under async-process's name for it.
    pub async fn output(self) -> io::Result<Output> {
        self.wait_with_output().await
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
    REACTOR
        .finish(child, |a| Child::from(a).wait_with_output(), crate::Child::wait_with_output)
        .await
}

/// [`Command::status`] on the reactor (async-process's `Command::status`): the stdio
/// inherited unless set, the exit awaited. Where the child has no exit notifier it is
/// waited for on a thread of its own, as in [`output`].
pub async fn status(command: &mut Command) -> io::Result<ExitStatus> {
    let child = command.spawn()?;
    REACTOR
        .finish(
            child,
            |a| async move {
                let mut child = Child::from(a);
                child.wait().await
            },
            |mut c| c.wait(),
        )
        .await
}

/// async-process's `driver()`, which drives its `SIGCHLD` reaper: a future that never
/// completes and does nothing. Nothing here needs driving: each child's exit is its own
/// notifier on async-io's reactor (which async-io drives itself), and a dropped child goes
/// to the crate's reaper thread. It is here so that code written for async-process runs
/// unchanged (`driver().or(work)` finishes with `work`).
pub fn driver() -> impl Future<Output = Infallible> + Send + 'static {
    std::future::pending()
}

/// A piped end handed back as a blocking [`Stdio`] for the next child, as async-process's
/// `ChildStdin::into_stdio` (and its stdout and stderr kin): the end leaves the reactor
/// (`Async::into_inner`) and its `O_NONBLOCK` is cleared, so the next child gets the
/// blocking pipe a program expects. Not async, unlike async-process's (whose await is for
/// Windows only).
pub trait IntoStdio {
    /// This end as the next child's stdio.
    fn into_stdio(self) -> io::Result<Stdio>;
}

impl<T: AsFd + Into<Stdio>> IntoStdio for Async<T> {
    fn into_stdio(self) -> io::Result<Stdio> {
        let end = self.into_inner()?;
        let fd = end.as_fd().as_raw_fd();
        // SAFETY: fcntl on an fd `end` owns.
        let flags = check(unsafe { libc::fcntl(fd, libc::F_GETFL) })?;
        if flags & libc::O_NONBLOCK != 0 {
            // SAFETY: as above.
            check(unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) })?;
        }
        Ok(end.into())
    }
}

/// Everything `end` yields (nothing for no end).
async fn read_all<R: AsyncRead + Unpin>(end: Option<R>) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if let Some(mut r) = end {
        r.read_to_end(&mut buf).await?;
    }
    Ok(buf)
}
