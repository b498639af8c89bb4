//! Reaping without blocking: a child nobody will wait for (a `kill_on_drop` child dropped
//! unwaited, an async adapter's dropped child) is handed here, and one background thread
//! reaps it once it has exited, as tokio's orphan queue does. The dropping thread never
//! waits: a child that ignores or cannot receive its `SIGKILL` (`EPERM` after a setuid
//! program changed its ids) would otherwise block it for as long as the child lives.
//!
//! Bounded: one thread for all orphans, started with the first and ended with the last (its
//! wake pipe with it), never a thread per child; each orphan costs one entry and one fd.
//! The thread sleeps in `poll` on each orphan's exit notifier (a pidfd on Linux, a kqueue
//! on macOS and the BSDs; see `exit_notifier`) and on a wake pipe for new orphans. An orphan
//! without a notifier (other platforms, an old kernel, no fd left) is checked with
//! `waitpid(WNOHANG)` at growing intervals (10 ms doubling to 1 s). If the thread cannot be
//! started, orphans wait in the queue for the next hand-over to try again.
//!
//! Usage, inside the crate: [`adopt`] an [`Orphan`] made with [`Orphan::new`] (or let a
//! [`Child`](crate::Child) do it: `Child::reap_on_drop`).

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use crate::front::pidfd::PidFd;
use crate::platform::wait::wait_pid;

/// An unreaped child and what can wait for it.
#[derive(Debug)]
pub(crate) struct Orphan {
    /// Its pid, or `None` where it is known only through its pidfd.
    pid: Option<libc::pid_t>,
    /// Its pidfd: reaped through it (`waitid(P_PIDFD)`), so never a reused pid.
    pidfd: Option<PidFd>,
    /// An fd that polls readable at its exit (the pidfd's own when there is one).
    notifier: Option<OwnedFd>,
}

impl Orphan {
    /// A child of this process that nobody else will reap. `notifier`: an exit notifier fd
    /// for it, if one could be had (not needed when `pidfd` is given).
    pub(crate) fn new(
        pid: Option<libc::pid_t>,
        pidfd: Option<PidFd>,
        notifier: Option<OwnedFd>,
    ) -> Orphan {
        Orphan {
            pid,
            pidfd,
            notifier,
        }
    }

    /// The fd to poll for its exit, if any.
    fn poll_fd(&self) -> Option<RawFd> {
        match (&self.pidfd, &self.notifier) {
            (_, Some(n)) => Some(n.as_raw_fd()),
            (Some(p), None) => Some(std::os::fd::AsFd::as_fd(p).as_raw_fd()),
            (None, None) => None,
        }
    }

    /// Reaps it if it has exited; whether it is gone (reaped now, or already by someone
    /// else, or not reapable at all: nothing is left to wait for).
    fn try_reap(&self) -> bool {
        let r = match (&self.pidfd, self.pid) {
            (Some(p), _) => p.try_wait().map(|s| s.is_some()),
            (None, Some(pid)) => wait_pid(pid, libc::WNOHANG).map(|s| s.is_some()),
            (None, None) => Ok(true),
        };
        // An error (ECHILD: reaped elsewhere) means there is nothing left to reap.
        r.unwrap_or(true)
    }
}

/// The queue and its thread.
struct State {
    orphans: Vec<Orphan>,
    /// Whether the thread runs (it clears this, under the lock, as it ends).
    running: bool,
    /// The process the state belongs to: a forked child inherits the memory, not the thread.
    owner: libc::pid_t,
    /// The wake pipe (read, write), while the thread runs.
    wake: Option<(OwnedFd, OwnedFd)>,
}

static STATE: Mutex<State> = Mutex::new(State {
    orphans: Vec::new(),
    running: false,
    owner: 0,
    wake: None,
});

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Hands `orphan` to the reaper thread, starting it if need be. Never blocks on the child.
pub(crate) fn adopt(orphan: Orphan) {
    if orphan.try_reap() {
        return;
    }
    let mut s = state();
    // SAFETY: getpid cannot fail.
    let me = unsafe { libc::getpid() };
    if s.owner != me {
        // A forked copy of a process whose reaper ran: the queued children are not ours.
        s.orphans.clear();
        s.running = false;
        s.wake = None;
        s.owner = me;
    }
    s.orphans.push(orphan);
    if s.running {
        if let Some((_, w)) = &s.wake {
            // SAFETY: one byte from a live buffer into our non-blocking pipe; a full pipe
            // (EAGAIN) already holds a wake-up.
            unsafe { libc::write(w.as_raw_fd(), [0u8].as_ptr().cast(), 1) };
        }
        return;
    }
    let Ok(wake) = wake_pipe() else {
        return; // No fd for it now: the next hand-over tries again.
    };
    let read = wake.0.as_raw_fd();
    s.wake = Some(wake);
    let started = std::thread::Builder::new()
        .name("spawnmatrix-reaper".into())
        .spawn(move || run(read));
    match started {
        Ok(_) => s.running = true,
        Err(_) => s.wake = None,
    }
}

/// A pipe whose ends are close-on-exec and non-blocking.
fn wake_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let (r, w) = crate::platform::pipe_cloexec()?;
    for fd in [&r, &w] {
        // SAFETY: fcntl on fds we own.
        unsafe {
            let fl = crate::platform::errno::check(libc::fcntl(fd.as_raw_fd(), libc::F_GETFL))?;
            crate::platform::errno::check(libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, fl | libc::O_NONBLOCK))?;
        }
    }
    Ok((r, w))
}

/// The first and the longest sleep between checks of orphans without a notifier.
const FIRST_CHECK: Duration = Duration::from_millis(10);
const LONGEST_CHECK: Duration = Duration::from_secs(1);

/// The thread: sleeps until an orphan exits (or a new one comes), reaps what has exited,
/// ends when none is left. `wake`: the read end of the wake pipe, owned by the state.
fn run(wake: RawFd) {
    block_signals();
    let mut check_every = FIRST_CHECK;
    loop {
        let (mut fds, unwatched) = {
            let mut s = state();
            s.orphans.retain(|o| !o.try_reap());
            if s.orphans.is_empty() {
                s.running = false;
                s.wake = None;
                return;
            }
            let mut fds = vec![pollfd(wake)];
            fds.extend(s.orphans.iter().filter_map(Orphan::poll_fd).map(pollfd));
            (fds, s.orphans.iter().any(|o| o.poll_fd().is_none()))
        };
        let timeout = match unwatched {
            true => libc::c_int::try_from(check_every.as_millis()).unwrap_or(1000),
            false => -1,
        };
        // SAFETY: a valid array of pollfds; EINTR and errors just lead to another round.
        let _ = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
        if fds[0].revents != 0 {
            drain(wake);
            check_every = FIRST_CHECK;
        } else if unwatched {
            check_every = (check_every * 2).min(LONGEST_CHECK);
        }
    }
}

fn pollfd(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

/// Empties the wake pipe. The fd is still open: only this thread's exit closes it, under
/// the lock, after the last read.
fn drain(fd: RawFd) {
    let mut buf = [0u8; 64];
    // SAFETY: reads into a live buffer from our non-blocking pipe until it is empty.
    while unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) } > 0 {}
}

/// No signal handler runs on the reaper thread: it is the program's, not this crate's.
fn block_signals() {
    // SAFETY: fills a local set and sets this thread's own mask.
    unsafe {
        let mut all = std::mem::zeroed::<libc::sigset_t>();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &all, std::ptr::null_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands over a child still running; it is reaped after it exits, by the thread.
    #[test]
    fn an_orphan_is_reaped_once_it_exits() {
        let child = std::process::Command::new("sleep").arg("0.3").spawn().unwrap();
        let pid = child.id() as libc::pid_t;
        std::mem::forget(child);
        adopt(Orphan::new(Some(pid), None, None));
        let start = std::time::Instant::now();
        loop {
            // SAFETY: kill with signal 0 only checks; ESRCH once reaped.
            let alive = unsafe { libc::kill(pid, 0) } == 0;
            if !alive {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "never reaped");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(start.elapsed() >= Duration::from_millis(200));
    }
}
