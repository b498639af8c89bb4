//! What a spawn costs beyond the single-threaded, small-parent case (`spawnmatrix bench
//! --scale`): throughput with 1, 2, 4 and 8 threads spawning at once, cost against the size
//! of the environment and of the argument list, and cost when the parent holds 10,000 open
//! (close-on-exec) fds. Shared `Auto`, std and the libc's `posix_spawn` run side by side in
//! shuffled rounds, so noise falls on all of them alike; every ratio divides figures of the
//! same run (to the smallest point of the same spawner, and to the libc at the same point).

use std::ffi::OsString;
use std::path::PathBuf;

use serde::Serialize;

use super::affinity::Pin;
use super::clock::now_ns;
use super::stats::{ratio, Summary};

mod fds;
pub mod render;
mod spawners;

pub use spawners::Spawner;

/// What to measure.
#[derive(Debug, Clone)]
pub struct ScaleOptions {
    pub program: PathBuf,
    /// Measured spawns per spawner and point (per thread, for the thread counts).
    pub spawns: u32,
    /// Rounds the spawns are split into (each round shuffles the spawners).
    pub rounds: u32,
    pub threads: Vec<usize>,
    pub env_vars: Vec<usize>,
    pub args: Vec<usize>,
    pub open_fds: Vec<usize>,
    pub progress: bool,
}

impl ScaleOptions {
    pub fn new(program: PathBuf) -> ScaleOptions {
        ScaleOptions {
            program,
            spawns: 200,
            rounds: 5,
            threads: vec![1, 2, 4, 8],
            env_vars: vec![0, 1_000, 10_000],
            args: vec![0, 1_000, 10_000],
            open_fds: vec![0, 10_000],
            progress: true,
        }
    }
}

/// One spawner at one point of a dimension.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    pub spawner: String,
    /// Threads, variables, arguments or open fds.
    pub at: u64,
    /// Median cost of one spawn + wait (for threads: wall time per spawn of the whole run).
    pub median_us: f64,
    pub spawns_per_second: f64,
    /// Over the same spawner's figure at the dimension's first point: cost (or, for
    /// threads, throughput) growth.
    pub ratio_to_first: f64,
    /// Cost over the libc's at the same point.
    pub ratio_to_libc: Option<f64>,
}

/// One dimension's measurements.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// `threads`, `env_vars`, `args`, `open_fds`.
    pub dimension: &'static str,
    pub title: String,
    pub points: Vec<Point>,
    /// Why the dimension (or part of it) was not measured.
    pub skipped: Option<String>,
}

/// A whole `--scale` run.
#[derive(Debug, Clone, Serialize)]
pub struct Scale {
    pub tables: Vec<Table>,
    pub spawns: u32,
    pub load_before: Option<f64>,
    pub load_after: Option<f64>,
    pub started_at: String,
}

type Failure = Box<dyn std::error::Error>;

fn say(options: &ScaleOptions, what: &str) {
    if options.progress {
        eprintln!("bench --scale: {what}");
    }
}

/// Runs every dimension.
pub fn measure(options: &ScaleOptions) -> Result<Scale, Failure> {
    let started_at = crate::report::now_rfc3339();
    let load_before = super::load_average();
    let mut tables = Vec::new();
    say(options, "threads spawning at once (unpinned)");
    tables.push(threads(options)?);
    // One CPU for the single-threaded dimensions, as the parent-size benchmark does.
    let pin = Pin::to_one_cpu()?;
    say(options, "environment size");
    tables.push(env_vars(options)?);
    say(options, "argument count");
    tables.push(args(options)?);
    say(options, "open fds in the parent");
    tables.push(fds::open_fds(options)?);
    drop(pin);
    Ok(Scale {
        tables,
        spawns: options.spawns,
        load_before,
        load_after: super::load_average(),
        started_at,
    })
}

/// A fixed-seed shuffle, so every run visits spawners in the same orders.
fn shuffled(spawners: &[Spawner], round: u32) -> Vec<Spawner> {
    let mut order = spawners.to_vec();
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(round).wrapping_mul(0x2545_f491);
    for i in (1..order.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        order.swap(i, (x % (i as u64 + 1)) as usize);
    }
    order
}

/// Per-spawn samples (ns) of every spawner at one point, in shuffled rounds.
fn samples_at(
    options: &ScaleOptions,
    spawners: &[Spawner],
    args: &[OsString],
) -> Result<Vec<Vec<u64>>, Failure> {
    let mut samples = vec![Vec::new(); spawners.len()];
    // One unmeasured spawn each first: page cache, per-thread buffers, clone3 probe.
    for s in spawners {
        s.spawn_wait(&options.program, args)?;
    }
    let rounds = options.rounds.max(1);
    let per_round = options.spawns.div_ceil(rounds);
    for round in 0..rounds {
        for s in shuffled(spawners, round) {
            let i = spawners.iter().position(|x| *x == s).unwrap_or(0);
            for _ in 0..per_round {
                let t0 = now_ns()?;
                s.spawn_wait(&options.program, args)?;
                samples[i].push(now_ns()?.saturating_sub(t0));
            }
        }
    }
    Ok(samples)
}

/// Points for one dimension from per-point medians: `medians[p][s]` is spawner `s` at point
/// `p`.
fn points(spawners: &[Spawner], at: &[usize], medians: &[Vec<f64>]) -> Vec<Point> {
    let libc = spawners.iter().position(|s| *s == Spawner::LibcPosixSpawn);
    let mut out = Vec::new();
    for (si, s) in spawners.iter().enumerate() {
        for (pi, &x) in at.iter().enumerate() {
            let m = medians[pi][si];
            out.push(Point {
                spawner: s.name().to_string(),
                at: x as u64,
                median_us: m,
                spawns_per_second: if m > 0.0 { 1e6 / m } else { 0.0 },
                ratio_to_first: ratio(m, medians[0][si]).unwrap_or(f64::NAN),
                ratio_to_libc: libc.and_then(|l| ratio(m, medians[pi][l])),
            });
        }
    }
    out
}

fn median_us(samples: &[u64]) -> f64 {
    Summary::of_nanos(samples).map_or(0.0, |s| s.median_us)
}

fn threads(options: &ScaleOptions) -> Result<Table, Failure> {
    let spawners = Spawner::SIDE_BY_SIDE;
    let mut medians = Vec::new();
    for &n in &options.threads {
        // Wall time per spawn of each round (all threads together), per spawner.
        let mut per_round: Vec<Vec<u64>> = vec![Vec::new(); spawners.len()];
        let rounds = options.rounds.max(1);
        let each = options.spawns.div_ceil(rounds).max(1);
        for round in 0..rounds {
            for s in shuffled(&spawners, round) {
                let i = spawners.iter().position(|x| *x == s).unwrap_or(0);
                let t0 = now_ns()?;
                run_threads(options, s, n, each)?;
                let wall = now_ns()?.saturating_sub(t0);
                per_round[i].push(wall / (u64::from(each) * n as u64));
            }
        }
        medians.push(per_round.iter().map(|s| median_us(s)).collect::<Vec<_>>());
    }
    let mut pts = points(&spawners, &options.threads, &medians);
    // For threads the headline is throughput: its ratio to one thread (2.0 = twice the
    // spawns per second), not the cost ratio.
    for p in &mut pts {
        p.ratio_to_first = 1.0 / p.ratio_to_first;
    }
    Ok(Table {
        dimension: "threads",
        title: String::from("Threads spawning at once: spawns/s of the whole process"),
        points: pts,
        skipped: None,
    })
}

fn run_threads(options: &ScaleOptions, s: Spawner, n: usize, each: u32) -> Result<(), Failure> {
    let results: Vec<std::io::Result<()>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..each {
                        s.spawn_wait(&options.program, &[])?;
                    }
                    Ok(())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("thread panicked")))
            })
            .collect()
    });
    for r in results {
        r?;
    }
    Ok(())
}

/// The names of the variables this benchmark adds to its own environment.
fn env_name(i: usize) -> String {
    format!("SPAWNMATRIX_BENCH_ENV_{i:05}")
}

fn env_vars(options: &ScaleOptions) -> Result<Table, Failure> {
    let spawners = Spawner::SIDE_BY_SIDE;
    let mut sizes = options.env_vars.clone();
    sizes.sort_unstable();
    let mut medians = Vec::new();
    let mut have = 0;
    let result = (|| -> Result<(), Failure> {
        for &n in &sizes {
            // The benchmark runs on this thread only: nothing reads the environment while
            // it changes.
            while have < n {
                std::env::set_var(env_name(have), "value-of-a-benchmark-variable");
                have += 1;
            }
            let s = samples_at(options, &spawners, &[])?;
            medians.push(s.iter().map(|v| median_us(v)).collect::<Vec<_>>());
        }
        Ok(())
    })();
    for i in 0..have {
        std::env::remove_var(env_name(i));
    }
    result?;
    Ok(Table {
        dimension: "env_vars",
        title: String::from("Variables added to the parent's environment (inherited unchanged)"),
        points: points(&spawners, &sizes, &medians),
        skipped: None,
    })
}

fn args(options: &ScaleOptions) -> Result<Table, Failure> {
    let spawners = Spawner::SIDE_BY_SIDE;
    let mut medians = Vec::new();
    for &n in &options.args {
        let args: Vec<OsString> = (0..n).map(|i| format!("argument-{i:06}").into()).collect();
        let s = samples_at(options, &spawners, &args)?;
        medians.push(s.iter().map(|v| median_us(v)).collect::<Vec<_>>());
    }
    Ok(Table {
        dimension: "args",
        title: String::from("Arguments after argv[0] (16 bytes each)"),
        points: points(&spawners, &options.args, &medians),
        skipped: None,
    })
}
