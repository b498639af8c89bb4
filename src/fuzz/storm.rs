//! Signal storm: a handler that must only ever run in the parent, flooded with signals sent to
//! the whole process group while spawns run. If a spawn strategy lets the handler run in a
//! child (between fork/clone and exec), the handler sees a different pid and records it: in an
//! atomic (visible to the parent when the child shares its memory) and as a byte in a pipe
//! (visible when it does not).
//!
//! The flood goes to the process group, so the caller must lead its own group (the tests run
//! this in a re-executed sub-process that calls `setpgid(0, 0)` first).

use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Arc;

use super::load::{run_once, Ended, Spawner};
use super::sys;

/// The signal used: default action "ignore", so a child that receives it after exec survives.
pub const STORM_SIGNAL: libc::c_int = libc::SIGWINCH;

static PARENT_PID: AtomicI32 = AtomicI32::new(0);
static VIOLATION_FD: AtomicI32 = AtomicI32::new(-1);
static IN_PARENT: AtomicUsize = AtomicUsize::new(0);
static IN_CHILD: AtomicUsize = AtomicUsize::new(0);

extern "C" fn guard(_: libc::c_int) {
    // SAFETY: getpid and write are async-signal-safe; the byte lives in static memory.
    unsafe {
        if libc::getpid() == PARENT_PID.load(Ordering::Relaxed) {
            IN_PARENT.fetch_add(1, Ordering::Relaxed);
        } else {
            IN_CHILD.fetch_add(1, Ordering::Relaxed);
            libc::write(
                VIOLATION_FD.load(Ordering::Relaxed),
                b"!".as_ptr().cast(),
                1,
            );
        }
    }
}

/// What a storm run observed.
#[derive(Debug, Default)]
pub struct StormReport {
    pub spawns: usize,
    pub succeeded: usize,
    /// Spawn errors and children that did not exit 0, with the reason.
    pub failures: Vec<String>,
    /// Handler runs in the parent (proves the storm happened).
    pub handled_in_parent: usize,
    /// Handler runs seen in a child: through shared memory and through the pipe.
    pub in_child_shared: usize,
    pub in_child_pipe: usize,
    pub signals_sent: usize,
}

fn install(violation_w: &OwnedFd) -> io::Result<()> {
    // SAFETY: getpid cannot fail; the sigaction struct is zeroed and its mask initialised.
    unsafe {
        PARENT_PID.store(libc::getpid(), Ordering::Relaxed);
        VIOLATION_FD.store(violation_w.as_raw_fd(), Ordering::Relaxed);
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = guard as extern "C" fn(libc::c_int) as libc::sighandler_t;
        sa.sa_flags = libc::SA_RESTART;
        if libc::sigemptyset(&mut sa.sa_mask) != 0
            || libc::sigaction(STORM_SIGNAL, &sa, std::ptr::null_mut()) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Runs `spawns` spawns of `program` through `spawner` on `threads` threads while a flood
/// thread signals the process group. Fails when this process does not lead its group.
pub fn run(
    spawner: Arc<dyn Spawner>,
    program: &Path,
    spawns: usize,
    threads: usize,
) -> io::Result<StormReport> {
    // SAFETY: getpgrp/getpid cannot fail.
    if unsafe { libc::getpgrp() != libc::getpid() } {
        return Err(io::Error::other(
            "the signal storm must run in its own process group",
        ));
    }
    let (violation_r, violation_w) = sys::pipe_cloexec()?;
    // SAFETY: only sets O_NONBLOCK on our own fd, so the handler can never block in write.
    unsafe {
        let fl = libc::fcntl(violation_w.as_raw_fd(), libc::F_GETFL);
        if fl < 0
            || libc::fcntl(
                violation_w.as_raw_fd(),
                libc::F_SETFL,
                fl | libc::O_NONBLOCK,
            ) < 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    install(&violation_w)?;
    let stop = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicUsize::new(0));
    let flood = {
        let (stop, sent) = (stop.clone(), sent.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                // SAFETY: kill(0, sig) signals our own process group.
                unsafe { libc::kill(0, STORM_SIGNAL) };
                sent.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    let per_thread = spawns.div_ceil(threads.max(1));
    let workers: Vec<_> = (0..threads.max(1))
        .map(|t| {
            let spawner = spawner.clone();
            let program = program.to_path_buf();
            let n = per_thread.min(spawns.saturating_sub(t * per_thread));
            std::thread::spawn(move || {
                (0..n)
                    .map(|_| one(spawner.as_ref(), &program))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut report = StormReport {
        spawns,
        ..StormReport::default()
    };
    for w in workers {
        let results = w
            .join()
            .unwrap_or_else(|_| vec![Err(String::from("a spawning thread panicked"))]);
        for r in results {
            match r {
                Ok(()) => report.succeeded += 1,
                Err(e) => report.failures.push(e),
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let _ = flood.join();
    drop(violation_w);
    let mut bytes = Vec::new();
    std::fs::File::from(violation_r).read_to_end(&mut bytes)?;
    report.in_child_pipe = bytes.len();
    report.in_child_shared = IN_CHILD.load(Ordering::Relaxed);
    report.handled_in_parent = IN_PARENT.load(Ordering::Relaxed);
    report.signals_sent = sent.load(Ordering::Relaxed);
    Ok(report)
}

fn one(spawner: &dyn Spawner, program: &Path) -> Result<(), String> {
    match run_once(spawner, program)?.ended {
        Ended::Code(0) => Ok(()),
        other => Err(format!("child ended {other:?}")),
    }
}
