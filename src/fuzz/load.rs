//! Concurrent spawn load, reusable by the reliability tests and by the conformance case
//! `conc-multithread-spawn`: many threads spawn the helper, each child with its own stdin and
//! stdout pipes, while churn threads open and close close-on-exec fds. Every child reports its
//! fds; the driver checks that exactly its own pipes (plus what the parent had inheritable from
//! the start) reached it, that every child was reaped, and that the run ended before a deadline.

use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::child::ChildState;

use super::sys;

/// The ends a child gets: `stdin` becomes its fd 0 and `stdout` its fd 1. Both are
/// close-on-exec in the parent; the spawner drops them once the child exists.
pub struct Pipes {
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
}

/// How a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Code(i32),
    Signal(i32),
}

/// A started child that can be waited for once.
pub trait Running: Send {
    fn pid(&self) -> u32;
    fn wait(self: Box<Self>) -> io::Result<Ended>;
}

/// One way of starting the helper; implemented for the raw libc here and for the shared
/// implementation by its users.
pub trait Spawner: Send + Sync {
    /// Starts `program` (no arguments beyond `argv[0]`) with `pipes` as fds 0 and 1, the
    /// parent's fd 2, and nothing else it did not already inherit.
    fn start(&self, program: &Path, pipes: Pipes) -> io::Result<Box<dyn Running>>;
}

/// The load's shape.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    pub threads: usize,
    pub spawns_per_thread: usize,
    /// Threads that open and close close-on-exec fds in a loop meanwhile.
    pub churn_threads: usize,
    /// The run fails as a deadlock when it has not finished by then.
    pub deadline: Duration,
}

/// What a load run observed.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub attempted: usize,
    pub succeeded: usize,
    /// Spawn errors, bad exits, unreadable reports, and reports naming a pid other than the
    /// one the spawn returned (a mix-up between concurrent spawns; pids themselves repeat
    /// legitimately once reaped). The first 20.
    pub failures: Vec<String>,
    /// Children that saw an fd other than their own pipes and the inheritable baseline.
    pub leaks: Vec<String>,
    /// Spawned pids still listed as this process's children after every wait returned;
    /// `None` where the platform cannot list children. Meaningful when nothing else in the
    /// process spawns meanwhile (a reused pid would be counted).
    pub left_children: Option<Vec<u32>>,
    pub churn_ops: usize,
    pub elapsed: Duration,
    /// Set when the deadline passed: how many spawns had finished by then.
    pub timed_out: Option<usize>,
}

impl LoadReport {
    /// Whether the run met every guarantee.
    pub fn clean(&self) -> bool {
        self.timed_out.is_none()
            && self.failures.is_empty()
            && self.leaks.is_empty()
            && self.succeeded == self.attempted
            && self.left_children.as_ref().is_none_or(|l| l.is_empty())
    }
}

fn push_capped(list: &mut Vec<String>, item: String) {
    const CAP: usize = 20;
    if list.len() < CAP {
        list.push(item);
    } else if list.len() == CAP {
        list.push(String::from("(more omitted)"));
    }
}

/// The fds (>= 3) this process holds without `FD_CLOEXEC`: what any child inherits legitimately.
pub fn inheritable_fds() -> Vec<i32> {
    // SAFETY: getrlimit writes into the struct; fcntl(F_GETFD) only queries.
    let limit = unsafe {
        let mut rl: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) == 0 {
            rl.rlim_cur.min(65_536) as i32
        } else {
            1024
        }
    };
    (3..limit)
        .filter(|fd| {
            // SAFETY: as above.
            let flags = unsafe { libc::fcntl(*fd, libc::F_GETFD) };
            flags >= 0 && flags & libc::FD_CLOEXEC == 0
        })
        .collect()
}

fn ino(fd: &OwnedFd) -> io::Result<u64> {
    // SAFETY: fstat writes into the struct.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(fd.as_raw_fd(), &mut st) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(st.st_ino as u64)
    }
}

/// A child that ran to its end with its own pipes: what it wrote and how it ended.
pub struct Finished {
    pub pid: u32,
    /// Inode numbers of the pipes given as its fd 0 and fd 1.
    pub stdin_ino: u64,
    pub stdout_ino: u64,
    pub output: String,
    pub ended: Ended,
}

/// Starts `program` with fresh pipes as stdin (closed at once) and stdout (read to its end),
/// then waits for it. Errors name the step that failed.
pub fn run_once(spawner: &dyn Spawner, program: &Path) -> Result<Finished, String> {
    let harness = |e: io::Error| format!("harness: {e}");
    let (in_r, in_w) = sys::pipe_cloexec().map_err(harness)?;
    let (out_r, out_w) = sys::pipe_cloexec().map_err(harness)?;
    let (stdin_ino, stdout_ino) = (ino(&in_r).map_err(harness)?, ino(&out_w).map_err(harness)?);
    let pipes = Pipes {
        stdin: in_r,
        stdout: out_w,
    };
    let child = spawner
        .start(program, pipes)
        .map_err(|e| format!("spawn failed: {e}"))?;
    let pid = child.pid();
    drop(in_w);
    let mut output = String::new();
    let read = std::fs::File::from(out_r).read_to_string(&mut output);
    let ended = child
        .wait()
        .map_err(|e| format!("pid {pid}: wait failed: {e}"))?;
    read.map_err(|e| format!("pid {pid}: reading its output: {e}"))?;
    Ok(Finished {
        pid,
        stdin_ino,
        stdout_ino,
        output,
        ended,
    })
}

/// One spawn and its checks. `Ok(pid)`, or the failure and whether it was a leak.
fn one(spawner: &dyn Spawner, program: &Path, baseline: &[i32]) -> Result<u32, (bool, String)> {
    let Finished {
        pid,
        stdin_ino: in_ino,
        stdout_ino: out_ino,
        output: json,
        ended,
    } = run_once(spawner, program).map_err(|e| (false, e))?;
    if ended != Ended::Code(0) {
        return Err((false, format!("pid {pid}: ended {ended:?}")));
    }
    let state = ChildState::parse(&json).map_err(|e| (false, format!("pid {pid}: {e}")))?;
    if i64::from(state.pid) != i64::from(pid) {
        return Err((
            false,
            format!("spawn returned pid {pid}, its child reported {}", state.pid),
        ));
    }
    let mut wrong = Vec::new();
    for f in &state.fds {
        let ok = match f.fd {
            0 => f.ino == in_ino,
            1 => f.ino == out_ino,
            2 => true,
            n => baseline.contains(&n),
        };
        if !ok {
            wrong.push(format!("fd {} ({:?})", f.fd, f.target));
        }
    }
    for need in [0, 1] {
        if state.fd(need).is_none() {
            wrong.push(format!("fd {need} missing"));
        }
    }
    if !wrong.is_empty() {
        return Err((true, format!("pid {pid} saw {}", wrong.join(", "))));
    }
    Ok(pid)
}

/// Opens and closes close-on-exec fds (files and pipes) until `stop` is set.
fn churn(stop: &AtomicBool, ops: &AtomicUsize) {
    while !stop.load(Ordering::Relaxed) {
        let file = std::fs::File::open("/dev/null");
        let pipe = sys::pipe_cloexec();
        drop((file, pipe));
        ops.fetch_add(1, Ordering::Relaxed);
    }
}

/// Runs the load with `spawner` starting `program` (the child helper).
pub fn run(config: &LoadConfig, spawner: Arc<dyn Spawner>, program: &Path) -> LoadReport {
    let baseline = Arc::new(inheritable_fds());
    let stop = Arc::new(AtomicBool::new(false));
    let churn_ops = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let churners: Vec<_> = (0..config.churn_threads)
        .map(|_| {
            let (stop, ops) = (stop.clone(), churn_ops.clone());
            std::thread::spawn(move || churn(&stop, &ops))
        })
        .collect();
    let (tx, rx) = mpsc::channel();
    for _ in 0..config.threads {
        let (tx, spawner, baseline, done) =
            (tx.clone(), spawner.clone(), baseline.clone(), done.clone());
        let program: PathBuf = program.to_path_buf();
        let n = config.spawns_per_thread;
        std::thread::spawn(move || {
            let results: Vec<_> = (0..n)
                .map(|_| {
                    let r = one(spawner.as_ref(), &program, &baseline);
                    done.fetch_add(1, Ordering::Relaxed);
                    r
                })
                .collect();
            let _ = tx.send(results);
        });
    }
    drop(tx);
    let mut report = LoadReport {
        attempted: config.threads * config.spawns_per_thread,
        ..LoadReport::default()
    };
    let mut pids = std::collections::HashSet::new();
    for _ in 0..config.threads {
        let left = config.deadline.saturating_sub(start.elapsed());
        match rx.recv_timeout(left) {
            Ok(results) => {
                for r in results {
                    match r {
                        Ok(pid) => {
                            report.succeeded += 1;
                            pids.insert(pid);
                        }
                        Err((true, msg)) => push_capped(&mut report.leaks, msg),
                        Err((false, msg)) => push_capped(&mut report.failures, msg),
                    }
                }
            }
            Err(_) => {
                report.timed_out = Some(done.load(Ordering::Relaxed));
                break;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    for c in churners {
        let _ = c.join();
    }
    report.left_children =
        sys::live_children().map(|kids| kids.into_iter().filter(|k| pids.contains(k)).collect());
    report.churn_ops = churn_ops.load(Ordering::Relaxed);
    report.elapsed = start.elapsed();
    report
}
