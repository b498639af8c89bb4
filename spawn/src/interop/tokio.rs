//! The `tokio` feature: a spawned child on a tokio runtime. Waiting registers the child's
//! [`ExitNotifier`](crate::ExitNotifier) with the runtime's reactor, so no thread blocks and
//! no `SIGCHLD` handler is installed; the piped stdio becomes tokio's non-blocking pipe types.
//! Spawning itself is the crate's own (every strategy, every promise), then handed over.
//!
//! ```
//! # let rt = tokio::runtime::Builder::new_current_thread().enable_io().build()?;
//! # rt.block_on(async {
//! use spawnmatrix_spawn::{tokio::Child, Command, Stdio};
//!
//! let out = spawnmatrix_spawn::tokio::output(Command::new("echo").arg("hi")).await?;
//! assert_eq!(out.stdout, b"hi\n");
//!
//! let mut child = Child::new(Command::new("true").stdout(Stdio::null()).spawn()?)?;
//! assert!(child.wait().await?.success());
//! # Ok::<(), std::io::Error>(())
//! # })?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::future::Future;
use std::io;
use std::os::fd::OwnedFd;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::pin;
use std::task::Poll;

use ::tokio::io::unix::AsyncFd;
use ::tokio::io::{AsyncRead, AsyncReadExt, Interest};
use ::tokio::net::unix::pipe;
use ::tokio::runtime::{self, Handle};

use super::async_adopt::{Adopted, Reactor};
use crate::{Command, ExitNotifier, ExitStatus, Output, Stdio};

/// A child whose exit and stdio are awaited on the current tokio runtime. Made inside a
/// runtime with I/O enabled (as tokio's own I/O types are; elsewhere an error). Its wait
/// follows the runtime it runs in: a child made in one runtime can be waited for in
/// another, after the first has shut down, as tokio's own can.
#[derive(Debug)]
pub struct Child {
    inner: crate::Child,
    exit: Exit,
    /// The writing end of the child's stdin, if piped.
    pub stdin: Option<pipe::Sender>,
    /// The reading end of the child's stdout, if piped.
    pub stdout: Option<pipe::Receiver>,
    /// The reading end of the child's stderr, if piped.
    pub stderr: Option<pipe::Receiver>,
}

/// The exit notifier, registered with one runtime's reactor.
#[derive(Debug)]
struct Exit {
    fd: AsyncFd<ExitNotifier>,
    runtime: runtime::Id,
}

impl Exit {
    /// `child`'s notifier, registered with the current runtime.
    fn register(child: &mut crate::Child) -> io::Result<Exit> {
        let runtime = current()?.id();
        let notifier = child.exit_notifier()?;
        let fd = on_reactor(|| {
            // SAFETY: an ExitNotifier owns its fd and never changes or closes it before it
            // is dropped, which the AsyncFd does.
            unsafe { AsyncFd::register_with_interest(notifier, Interest::READABLE) }
                .map_err(io::Error::from)
        })?;
        Ok(Exit { fd, runtime })
    }
}

/// The current runtime, or an error outside one (tokio's own types would panic).
fn current() -> io::Result<Handle> {
    Handle::try_current().map_err(io::Error::other)
}

/// `register`'s result, or an error where tokio panics instead: in a runtime built without
/// I/O every registration with the reactor panics ("IO is disabled"), and tokio has no
/// public way to ask first. The panic is caught here, so it still reaches the panic hook
/// (the default one prints it), and where panics abort (`panic = "abort"`) it aborts.
fn on_reactor<T>(register: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    catch_unwind(AssertUnwindSafe(register)).unwrap_or_else(|payload| {
        let why = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        Err(io::Error::other(format!(
            "the tokio runtime cannot poll the child (build it with enable_io): {why}"
        )))
    })
}

/// An error unless the current runtime's reactor takes fds: registers a pipe's end and
/// drops it (one pipe, no process), so `output` refuses before it runs anything.
fn reactor_present() -> io::Result<()> {
    current()?;
    let (read, _write) = crate::platform::pipe_cloexec()?;
    on_reactor(|| {
        // SAFETY: the AsyncFd owns the fd, which nothing else names, until it drops it.
        unsafe { AsyncFd::register_with_interest(read, Interest::READABLE) }.map_err(io::Error::from)
    })
    .map(drop)
}

/// The exit on this runtime's reactor, the ends as tokio pipes.
const REACTOR: Reactor<Exit, pipe::Sender, pipe::Receiver, pipe::Receiver> = Reactor {
    exit: Exit::register,
    stdin: |e| on_reactor(|| pipe::Sender::from_owned_fd(OwnedFd::from(e))),
    stdout: |e| on_reactor(|| pipe::Receiver::from_owned_fd(OwnedFd::from(e))),
    stderr: |e| on_reactor(|| pipe::Receiver::from_owned_fd(OwnedFd::from(e))),
};

impl From<Adopted<Exit, pipe::Sender, pipe::Receiver, pipe::Receiver>> for Child {
    fn from(a: Adopted<Exit, pipe::Sender, pipe::Receiver, pipe::Receiver>) -> Child {
        Child {
            inner: a.child,
            exit: a.exit,
            stdin: a.stdin,
            stdout: a.stdout,
            stderr: a.stderr,
        }
    }
}

impl Child {
    /// Takes over a spawned child: its exit notifier goes to the reactor and its piped ends
    /// become non-blocking tokio pipes. `Unsupported` where the platform has no pollable
    /// exit (see [`crate::Child::exit_notifier`]); outside a runtime, or in one built
    /// without I/O, an error where tokio's own types would panic. On any error the child is
    /// killed before this returns and reaped by the reaper thread, so nothing runs on unseen,
    /// no zombie is left and nothing blocks here.
    /// Without I/O, tokio's own panic is what says so (it has no public way to ask whether
    /// a runtime has I/O): it is caught, so the panic hook still sees it, and a build with
    /// `panic = "abort"` aborts as tokio's own types do.
    pub fn new(child: crate::Child) -> io::Result<Child> {
        REACTOR.adopt_or_end(child).map(Child::from)
    }

    /// The child's process id while it has one: `None` once it has been waited for (its pid
    /// may then be another process's), as tokio's `Child::id`. Also `None` for a child whose
    /// pid was never known (see [`crate::Child::id`]).
    pub fn id(&self) -> Option<u32> {
        match self.inner.has_been_waited() {
            true => None,
            false => Some(self.inner.id()).filter(|&pid| pid != 0),
        }
    }

    /// Sends `SIGKILL` without waiting for the exit, as tokio's `start_kill`: `Ok` and no
    /// signal once the child has been waited for (see [`crate::Child::kill`]).
    pub fn start_kill(&mut self) -> io::Result<()> {
        self.inner.kill()
    }

    /// Sends `SIGKILL`, then waits for the exit and reaps it, as tokio's `kill`. `Ok` for a
    /// child already waited for.
    pub async fn kill(&mut self) -> io::Result<()> {
        self.start_kill()?;
        self.wait().await.map(drop)
    }

    /// The status if the child has ended, without waiting (it is then reaped).
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        self.inner.try_wait()
    }

    /// The synchronous child (its `kill`, `try_wait`, `strategy`).
    pub fn inner(&mut self) -> &mut crate::Child {
        &mut self.inner
    }

    /// Closes stdin, then waits for the exit without blocking the runtime, and reaps it.
    /// In a runtime without I/O (the child was taken over in another), an error, as in
    /// [`Child::new`]; the child is left as it was.
    pub async fn wait(&mut self) -> io::Result<ExitStatus> {
        drop(self.stdin.take());
        loop {
            if let Some(s) = self.inner.try_wait()? {
                return Ok(s);
            }
            // Registered with a runtime that is not this one (it may have shut down): the
            // notifier moves to this one's reactor, as tokio's own child does.
            if current()?.id() != self.exit.runtime {
                self.exit = Exit::register(&mut self.inner)?;
            }
            let mut ready = self.exit.fd.readable().await?;
            match self.inner.try_wait()? {
                Some(s) => return Ok(s),
                None => ready.clear_ready(),
            }
        }
    }

    /// Closes stdin, reads stdout and stderr to their ends together, then waits.
    pub async fn wait_with_output(mut self) -> io::Result<Output> {
        drop(self.stdin.take());
        let (stdout, stderr) = join(read_all(self.stdout.take()), read_all(self.stderr.take())).await;
        let status = self.wait().await?;
        Ok(Output {
            status,
            stdout: stdout?,
            stderr: stderr?,
        })
    }
}

/// [`Command::output`] on the runtime: stdout and stderr captured, stdin `/dev/null` unless
/// set. Outside a runtime, or in one built without I/O (see [`Child::new`]), an error
/// before anything is spawned. Where the child has no exit
/// notifier (see [`crate::Child::exit_notifier`]) it is waited for on a thread of its own,
/// so the program still runs once and is reaped.
pub async fn output(command: &mut Command) -> io::Result<Output> {
    reactor_present()?;
    let child = command.spawn_for_output()?;
    REACTOR
        .finish(child, |a| Child::from(a).wait_with_output(), crate::Child::wait_with_output)
        .await
}

/// [`Command::status`] on the runtime (tokio's `Command::status`): the stdio inherited
/// unless set, the exit awaited. Outside a runtime an error before anything is spawned;
/// where the child has no exit notifier it is waited for on a thread of its own, as in
/// [`output`].
pub async fn status(command: &mut Command) -> io::Result<ExitStatus> {
    current()?;
    let child = command.spawn()?;
    REACTOR
        .finish(child, |a| async move { 
            let mut child = Child::from(a);
            child.wait().await
         }, |mut c| c.wait())
        .await
}

/// A piped end handed back as a blocking [`Stdio`] for the next child, as tokio's
/// `TryInto<Stdio>` for its child pipes and async-process's `into_stdio`: the end leaves the
/// reactor and its `O_NONBLOCK` is cleared (tokio's `into_blocking_fd`), so the next child
/// gets the blocking pipe a program expects.
pub trait IntoStdio {
    /// This end as the next child's stdio.
    fn into_stdio(self) -> io::Result<Stdio>;
}

impl IntoStdio for pipe::Sender {
    fn into_stdio(self) -> io::Result<Stdio> {
        self.into_blocking_fd().map(Stdio::from)
    }
}

impl IntoStdio for pipe::Receiver {
    fn into_stdio(self) -> io::Result<Stdio> {
        self.into_blocking_fd().map(Stdio::from)
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

/// Both futures' results, each polled until done (tokio's `join!` needs its macros).
async fn join<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let (mut a, mut b) = (pin!(a), pin!(b));
    let (mut ra, mut rb) = (None, None);
    std::future::poll_fn(|cx| {
        if ra.is_none() {
            if let Poll::Ready(v) = a.as_mut().poll(cx) {
                ra = Some(v);
            }
        }
        if rb.is_none() {
            if let Poll::Ready(v) = b.as_mut().poll(cx) {
                rb = Some(v);
            }
        }
        match (ra.take(), rb.take()) {
            (Some(x), Some(y)) => Poll::Ready((x, y)),
            (x, y) => {
                (ra, rb) = (x, y);
                Poll::Pending
            }
        }
    })
    .await
}
