//! `spawnmatrix fuzz`: the long differential-fuzzing run. Random file-action and attribute
//! sequences go through the fork+exec reference, the raw libc and the shared implementation;
//! divergences are explained by documented libc differences or reported (shrunk) as bugs.
//!
//! `--jobs N` splits one seed's stream over N worker processes (this executable again, with
//! `--worker K/N`): the runner places fixture fds at fixed numbers and moves the cwd, so it
//! needs a process of its own, and with the spawns waiting on each other most of the time,
//! several processes keep both CPUs busy. Workers print `progress` lines and one `summary`
//! line (JSON) on stdout; this process adds them up.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use spawnmatrix::fuzz::model::Sequence;
use spawnmatrix::fuzz::run::{fuzz_slice, Runner, Slice};
use spawnmatrix::fuzz::summary::Summary;
use spawnmatrix::report::Report;

use super::CliResult;

/// Sequences drawn when neither `--sequences` nor `--time` is given.
const DEFAULT_SEQUENCES: usize = 10_000;

#[derive(clap::Args)]
pub struct Args {
    /// How many sequences to draw (with --time: at most this many).
    #[arg(long)]
    sequences: Option<usize>,
    /// Stop starting sequences after this long (`90s`, `20m`, `1h`).
    #[arg(long, value_parser = humantime::parse_duration)]
    time: Option<Duration>,
    /// Worker processes sharing the run.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// The generator's seed; the same seed replays the same sequences. Default: from the clock
    /// (printed, so the run can be replayed).
    #[arg(long)]
    seed: Option<u64>,
    /// Print the summary as JSON on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the summary as JSON to DIR/fuzz-summary.json (atomically).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Record the campaign as the `fuzz` section of this report (a probe report of this
    /// platform, such as `targets/reports/native-*.json`), rewritten atomically.
    #[arg(long, value_name = "REPORT")]
    record: Option<PathBuf>,
    /// Run one sequence (its JSON, as a finding prints it) through every subject and print
    /// each outcome, instead of drawing sequences.
    #[arg(long, value_name = "JSON", conflicts_with_all = ["sequences", "time", "jobs", "seed", "json", "out", "record"])]
    replay: Option<String>,
    /// Seconds between progress lines on stderr.
    #[arg(long, default_value_t = 10)]
    progress_every: u64,
    /// Internal: run as worker K of N (`K/N`) and talk to the parent on stdout.
    #[arg(long, hide = true)]
    worker: Option<String>,
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

/// Exits 0 when no divergence is left unexplained, 1 otherwise.
pub fn run(args: Args) -> CliResult {
    if let Some(json) = &args.replay {
        return replay(json);
    }
    if let Some(worker) = &args.worker {
        return run_worker(&args, worker);
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let end = match (args.sequences, args.time) {
        (None, None) => Some(DEFAULT_SEQUENCES),
        (n, _) => n,
    };
    let jobs = args.jobs.max(1);
    let load = spawnmatrix::bench::load_average();
    if let Some(path) = &args.record {
        // Checked before the campaign, so a wrong path does not cost a whole run.
        read_own_report(path)?;
    }
    eprintln!(
        "spawnmatrix fuzz: seed {seed}, {}{}, {jobs} job(s)",
        end.map_or(String::from("no sequence limit"), |n| format!(
            "{n} sequences"
        )),
        args.time.map_or(String::new(), |t| format!(
            ", at most {}",
            humantime::format_duration(t)
        )),
    );
    let summary = if jobs == 1 {
        in_process(seed, end, args.time, args.progress_every)?
    } else {
        with_workers(seed, end, args.time, jobs, args.progress_every)?
    };
    let json = serde_json::to_string_pretty(&summary)? + "\n";
    match args.json {
        true => out!("{json}")?,
        false => outln!("{summary}")?,
    }
    if let Some(dir) = &args.out {
        super::out::write_into(dir, "fuzz-summary.json", json.as_bytes())?;
    }
    if let Some(path) = &args.record {
        let mut report = read_own_report(path)?;
        report.fuzz = Some(summary.record(load));
        let json = serde_json::to_string_pretty(&report)? + "\n";
        spawnmatrix::atomic::write(path, json.as_bytes())?;
        eprintln!("recorded in {}", path.display());
    }
    Ok(if summary.unexplained.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The report at `path`, which must describe this build's target and libc (a campaign is
/// recorded only in the report of the platform it ran on).
fn read_own_report(path: &Path) -> Result<Report, Box<dyn std::error::Error>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let report: Report =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let here = spawnmatrix::platform::detect();
    let (theirs, ours) = (&report.platform, &here);
    if (&theirs.target, &theirs.arch, &theirs.libc.name)
        != (&ours.target, &ours.arch, &ours.libc.name)
    {
        return Err(format!(
            "{} is a report of {} ({}), but this campaign runs on {} ({})",
            path.display(),
            theirs.target,
            theirs.libc.name,
            ours.target,
            ours.libc.name
        )
        .into());
    }
    Ok(report)
}

fn runner() -> Result<Runner, Box<dyn std::error::Error>> {
    let helper = spawnmatrix::child::helper_path()?;
    Ok(Runner::new(&helper, Runner::all_subjects())?)
}

/// One progress line on stderr.
fn progress_line(sequences: usize, unexplained: usize, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "  {sequences} sequences in {secs:.0} s ({:.1}/s), {unexplained} unexplained",
        sequences as f64 / secs.max(1e-9)
    );
}

fn in_process(
    seed: u64,
    end: Option<usize>,
    time: Option<Duration>,
    every: u64,
) -> Result<Summary, Box<dyn std::error::Error>> {
    let runner = runner()?;
    let started = Instant::now();
    let slice = Slice {
        job: 0,
        jobs: 1,
        end,
        deadline: time.map(|t| started + t),
    };
    let mut last = Instant::now();
    Ok(fuzz_slice(&runner, seed, slice, |s| {
        if last.elapsed() >= Duration::from_secs(every) {
            last = Instant::now();
            progress_line(s.sequences, s.unexplained.len(), started);
        }
    })?)
}

/// What a worker says on its stdout.
enum Event {
    Progress {
        job: usize,
        sequences: usize,
        unexplained: usize,
    },
    Done {
        job: usize,
        summary: Box<Result<Summary, String>>,
    },
}

fn with_workers(
    seed: u64,
    end: Option<usize>,
    time: Option<Duration>,
    jobs: usize,
    every: u64,
) -> Result<Summary, Box<dyn std::error::Error>> {
    // Installed once here, so the workers find the helper in place instead of racing to.
    spawnmatrix::child::helper_path()?;
    let exe = std::env::current_exe()?;
    let (tx, rx) = mpsc::channel();
    let mut children = Vec::new();
    for job in 0..jobs {
        let mut cmd = std::process::Command::new(&exe);
        cmd.arg("fuzz")
            .arg("--worker")
            .arg(format!("{job}/{jobs}"))
            .arg("--seed")
            .arg(seed.to_string())
            .stdout(Stdio::piped());
        if let Some(n) = end {
            cmd.arg("--sequences").arg(n.to_string());
        }
        if let Some(t) = time {
            cmd.arg("--time").arg(format!("{}ms", t.as_millis()));
        }
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().ok_or("worker without stdout")?;
        let tx = tx.clone();
        std::thread::spawn(move || read_worker(job, stdout, &tx));
        children.push(child);
    }
    drop(tx);
    let started = Instant::now();
    let mut last = Instant::now();
    let mut progress = vec![(0usize, 0usize); jobs];
    let mut total = Summary {
        seed,
        jobs,
        ..Summary::default()
    };
    let mut failures = Vec::new();
    for event in rx {
        match event {
            Event::Progress {
                job,
                sequences,
                unexplained,
            } => {
                progress[job] = (sequences, unexplained);
                if last.elapsed() >= Duration::from_secs(every) {
                    last = Instant::now();
                    let (n, u) = progress
                        .iter()
                        .fold((0, 0), |(n, u), (a, b)| (n + a, u + b));
                    progress_line(n, u, started);
                }
            }
            Event::Done { job, summary } => match *summary {
                Ok(s) => total.merge(s),
                Err(e) => failures.push(format!("worker {job}: {e}")),
            },
        }
    }
    for (job, mut child) in children.into_iter().enumerate() {
        let status = child.wait()?;
        if !status.success() && status.code() != Some(1) {
            failures.push(format!("worker {job} exited with {status}"));
        }
    }
    if !failures.is_empty() {
        return Err(failures.join("; ").into());
    }
    total.seconds = started.elapsed().as_secs_f64();
    Ok(total)
}

/// Forwards a worker's lines as events; a worker that ends without a summary is a failure.
fn read_worker(job: usize, stdout: impl std::io::Read, tx: &mpsc::Sender<Event>) {
    let mut summary = Err(String::from("ended without a summary"));
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        if let Some(rest) = line.strip_prefix("progress ") {
            let mut it = rest.split(' ').filter_map(|n| n.parse().ok());
            if let (Some(sequences), Some(unexplained)) = (it.next(), it.next()) {
                let _ = tx.send(Event::Progress {
                    job,
                    sequences,
                    unexplained,
                });
            }
        } else if let Some(json) = line.strip_prefix("summary ") {
            summary = serde_json::from_str(json).map_err(|e| format!("unreadable summary: {e}"));
        }
    }
    let _ = tx.send(Event::Done {
        job,
        summary: Box::new(summary),
    });
}

fn run_worker(args: &Args, worker: &str) -> CliResult {
    let (job, jobs) = worker
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)))
        .filter(|&(k, n): &(usize, usize)| k < n)
        .ok_or_else(|| format!("--worker wants K/N with K < N, not {worker:?}"))?;
    let seed = args.seed.ok_or("a worker needs --seed")?;
    let runner = runner()?;
    let slice = Slice {
        job,
        jobs,
        end: args.sequences,
        deadline: args.time.map(|t| Instant::now() + t),
    };
    let mut out = std::io::stdout().lock();
    let mut last = Instant::now();
    let summary = fuzz_slice(&runner, seed, slice, |s| {
        if last.elapsed() >= Duration::from_millis(500) {
            last = Instant::now();
            let _ = writeln!(out, "progress {} {}", s.sequences, s.unexplained.len());
            let _ = out.flush();
        }
    })?;
    writeln!(out, "summary {}", serde_json::to_string(&summary)?)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Runs one sequence through the reference and every subject and prints the outcomes.
fn replay(json: &str) -> CliResult {
    let text = match json.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))?,
        None => json.to_string(),
    };
    let seq: Sequence =
        serde_json::from_str(&text).map_err(|e| format!("not a fuzz sequence: {e}"))?;
    let runner = runner()?;
    let comparison = runner.compare(&seq)?;
    outln!("sequence {seq}")?;
    outln!("  reference: {}", comparison.reference)?;
    for (subject, got) in &comparison.others {
        outln!("  {subject}: {got}")?;
    }
    let divergences = comparison.divergences(&seq);
    for d in &divergences {
        let why = d.known.map_or(String::from("UNEXPLAINED"), |k| {
            format!("explained by {} (case {})", k.id, k.case)
        });
        outln!("  {} differs: {why}", d.subject)?;
        for detail in &d.details {
            outln!("    {detail}")?;
        }
    }
    Ok(if divergences.iter().all(|d| d.known.is_some()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
