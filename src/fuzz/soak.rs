//! Soak: a long run of plain spawns (the shared `Command`, `Auto`) from several threads at
//! once, with this process's resident memory, open fds and children sampled along the way.
//! A spawn path that leaks (an fd per spawn, a zombie per failed wait, a buffer kept per
//! spawn) shows as growth between the warmed-up start and the end; [`Soak::judge`] says
//! whether every curve stayed flat.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::sys;
use crate::spawn::Command;

/// The run's shape.
#[derive(Debug, Clone)]
pub struct SoakConfig {
    pub spawns: u64,
    pub threads: usize,
    /// The run fails when the spawns have not finished by then.
    pub time: Duration,
    /// Samples over the run (one every `spawns / samples` spawns).
    pub samples: u64,
}

/// One look at this process.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Sample {
    /// Spawns finished when the sample was taken.
    pub spawns: u64,
    pub seconds: f64,
    /// Resident set size; `None` where the platform does not say.
    pub rss_bytes: Option<u64>,
    pub open_fds: usize,
    /// Children of this process (zombies included); `None` where they cannot be listed.
    pub children: Option<usize>,
}

/// What a soak run observed.
#[derive(Debug, Clone, Serialize)]
pub struct Soak {
    pub spawns: u64,
    pub threads: usize,
    pub seconds: f64,
    /// Before any spawn.
    pub start: Sample,
    /// The reference for growth: the first sample at or after 10% of the spawns (thread
    /// stacks, allocator arenas and the spawn library's per-thread buffers exist by then).
    pub warm: Sample,
    /// After every thread has finished and been joined.
    pub end: Sample,
    pub samples: Vec<Sample>,
    /// Spawn or wait errors and bad exits (the first 20), and how many there were.
    pub failures: Vec<String>,
    pub failure_count: u64,
    /// Whether `waitpid(-1, WNOHANG)` found nothing left to reap at the end.
    pub nothing_to_reap: bool,
    pub timed_out: bool,
}

/// Resident memory may grow this much over the warmed-up sample (allocator noise: arenas
/// touch a page more or less), never more.
pub const RSS_SLACK_BYTES: u64 = 2 * 1024 * 1024;

impl Soak {
    /// Why the run is not clean; empty when it is.
    pub fn judge(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.timed_out {
            problems.push(format!(
                "only {} of the spawns finished in {:.0} s",
                self.end.spawns, self.seconds
            ));
        }
        if self.failure_count > 0 {
            problems.push(format!(
                "{} spawns failed, first: {}",
                self.failure_count,
                self.failures.first().map_or("", String::as_str)
            ));
        }
        if self.end.open_fds != self.start.open_fds {
            problems.push(format!(
                "open fds went from {} to {}",
                self.start.open_fds, self.end.open_fds
            ));
        }
        // Each thread has at most one spawn in flight; a zombie or a leaked fd per spawn
        // would pass that bound within the first samples.
        let in_flight_fds = 4 * self.threads;
        if let Some(s) = self
            .samples
            .iter()
            .find(|s| s.open_fds > self.start.open_fds + in_flight_fds)
        {
            problems.push(format!(
                "{} open fds after {} spawns (started with {}, {} threads)",
                s.open_fds, s.spawns, self.start.open_fds, self.threads
            ));
        }
        if let Some(s) = self
            .samples
            .iter()
            .find(|s| s.children.is_some_and(|c| c > self.threads))
        {
            problems.push(format!(
                "{} children after {} spawns with {} threads: unreaped children",
                s.children.unwrap_or(0),
                s.spawns,
                self.threads
            ));
        }
        if self.end.children.is_some_and(|c| c > 0) || !self.nothing_to_reap {
            problems.push(String::from("children were left at the end"));
        }
        if let (Some(warm), Some(end)) = (self.warm.rss_bytes, self.end.rss_bytes) {
            if end > warm + RSS_SLACK_BYTES.max(warm / 20) {
                problems.push(format!(
                    "resident memory grew from {} KiB (after {} spawns) to {} KiB",
                    warm / 1024,
                    self.warm.spawns,
                    end / 1024
                ));
            }
        }
        problems
    }
}

fn sample(spawns: u64, started: Instant) -> Sample {
    Sample {
        spawns,
        seconds: started.elapsed().as_secs_f64(),
        rss_bytes: sys::rss_bytes(),
        open_fds: sys::open_fds().len(),
        children: sys::live_children().map(|c| c.len()),
    }
}

/// Whether this process has no child left to reap (`ECHILD`).
fn nothing_to_reap() -> bool {
    let mut status = 0;
    // SAFETY: WNOHANG never blocks; status is a valid out-pointer.
    let r = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
    r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD)
}

/// Spawns `program` (which must exit 0) `config.spawns` times from `config.threads` threads.
/// Call it from a process that spawns nothing else meanwhile: the children and fds it
/// samples are the whole process's.
pub fn run(config: &SoakConfig, program: &Path) -> Soak {
    let threads = config.threads.max(1);
    let started = Instant::now();
    let deadline = started + config.time;
    let start = sample(0, started);
    let next = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let failures = Arc::new(Mutex::new((Vec::<String>::new(), 0u64)));
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let (next, done, stop, failures) = (
                Arc::clone(&next),
                Arc::clone(&done),
                Arc::clone(&stop),
                Arc::clone(&failures),
            );
            let program = program.to_path_buf();
            let total = config.spawns;
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) && next.fetch_add(1, Ordering::Relaxed) < total
                {
                    if let Err(e) = spawn_once(&program) {
                        let mut f = failures.lock().unwrap_or_else(|p| p.into_inner());
                        f.1 += 1;
                        if f.0.len() < 20 {
                            f.0.push(e);
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    let every = (config.spawns / config.samples.max(1)).max(1);
    let mut samples = Vec::new();
    let mut warm = None;
    let mut next_sample = every;
    let mut timed_out = false;
    loop {
        let finished = done.load(Ordering::Relaxed);
        if finished >= config.spawns || workers.iter().all(|w| w.is_finished()) {
            break;
        }
        if Instant::now() >= deadline {
            timed_out = true;
            stop.store(true, Ordering::Relaxed);
            break;
        }
        if finished >= next_sample {
            let s = sample(finished, started);
            if warm.is_none() && finished >= config.spawns / 10 {
                warm = Some(s);
            }
            samples.push(s);
            next_sample = finished + every;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    for w in workers {
        let _ = w.join();
    }
    let end = sample(done.load(Ordering::Relaxed), started);
    samples.push(end);
    let (failures, failure_count) =
        std::mem::take(&mut *failures.lock().unwrap_or_else(|p| p.into_inner()));
    Soak {
        spawns: end.spawns,
        threads,
        seconds: started.elapsed().as_secs_f64(),
        start,
        warm: warm.unwrap_or(start),
        end,
        samples,
        failures,
        failure_count,
        nothing_to_reap: nothing_to_reap(),
        timed_out,
    }
}

fn spawn_once(program: &Path) -> Result<(), String> {
    let status = Command::new(program)
        .spawn()
        .and_then(|mut child| child.wait())
        .map_err(|e| format!("spawn or wait: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("the child ended with {status}"))
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    fn at(spawns: u64, rss_kib: u64, fds: usize, children: usize) -> Sample {
        Sample {
            spawns,
            seconds: 0.0,
            rss_bytes: Some(rss_kib * 1024),
            open_fds: fds,
            children: Some(children),
        }
    }

    fn soak(samples: Vec<Sample>) -> Soak {
        let end = *samples.last().unwrap();
        Soak {
            spawns: end.spawns,
            threads: 4,
            seconds: 1.0,
            start: at(0, 3000, 5, 0),
            warm: samples[0],
            end,
            samples,
            failures: Vec::new(),
            failure_count: 0,
            nothing_to_reap: true,
            timed_out: false,
        }
    }

    #[rstest]
    #[case::flat(vec![at(100, 4000, 9, 4), at(1000, 4100, 7, 2), at(2000, 4000, 5, 0)], 0)]
    #[case::rss_grows(vec![at(100, 4000, 9, 4), at(2000, 40_000, 5, 0)], 1)]
    #[case::fd_leak_at_end(vec![at(100, 4000, 9, 4), at(2000, 4000, 6, 0)], 1)]
    #[case::fd_per_spawn(vec![at(100, 4000, 105, 4), at(2000, 4000, 5, 0)], 1)]
    #[case::zombies(vec![at(100, 4000, 9, 50), at(2000, 4000, 5, 0)], 1)]
    #[case::left_child(vec![at(100, 4000, 9, 4), at(2000, 4000, 5, 1)], 1)]
    fn judged(#[case] samples: Vec<Sample>, #[case] problems: usize) {
        let s = soak(samples);
        assert_eq!(s.judge().len(), problems, "{:?}", s.judge());
    }
}
