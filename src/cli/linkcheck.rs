//! `spawnmatrix linkcheck`: link C probes against zig sysroots and store one report per sysroot
//! (`link-<zig target>.json`) for the matrix's link-evidence columns.

use std::path::PathBuf;
use std::process::ExitCode;

use super::CliResult;
use spawnmatrix::linkcheck::{self, Event, Outcome, Sysroot, Zig};

#[derive(clap::Args)]
pub struct Args {
    /// A zig target to check (repeatable), e.g. `x86_64-linux-gnu.2.28`; default: the built-in
    /// list of glibc, musl, macOS, FreeBSD, NetBSD and OpenBSD versions.
    #[arg(long = "target", value_name = "ZIG_TARGET")]
    targets: Vec<String>,
    /// Keep only the targets that contain this text (repeatable), e.g. `macos`, `freebsd`.
    #[arg(long, value_name = "TEXT")]
    only: Vec<String>,
    /// Folder the reports are written to [default: the working tree's targets/reports].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Parallel zig invocations (default: the number of CPUs).
    #[arg(long)]
    jobs: Option<usize>,
    /// Fail when zig is missing instead of skipping every link column.
    #[arg(long)]
    require_zig: bool,
}

pub fn run(args: Args) -> CliResult {
    let names: Vec<String> = if args.targets.is_empty() {
        linkcheck::sysroot::DEFAULT
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        args.targets.clone()
    };
    let sysroots = names
        .iter()
        .filter(|n| args.only.is_empty() || args.only.iter().any(|o| n.contains(o.as_str())))
        .map(|n| Sysroot::parse(n))
        .collect::<Result<Vec<_>, _>>()?;
    if sysroots.is_empty() {
        return Err("no zig target left after --only".into());
    }
    let zig = match Zig::find() {
        Ok(z) => z,
        Err(missing) if !args.require_zig => {
            eprintln!(
                "linkcheck: skipped all {} link columns: {missing}",
                sysroots.len()
            );
            return Ok(ExitCode::SUCCESS);
        }
        Err(missing) => return Err(missing.into()),
    };
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| spawnmatrix::worktree::targets_dir().join("reports"));
    std::fs::create_dir_all(&out).map_err(|e| format!("creating {}: {e}", out.display()))?;
    let total = sysroots.len() * (1 + linkcheck::probes::ALL.len());
    let done = std::sync::atomic::AtomicUsize::new(0);
    eprintln!(
        "linkcheck: zig {} | {} sysroots x {} probes | {jobs} jobs",
        zig.version,
        sysroots.len(),
        linkcheck::probes::ALL.len()
    );
    let progress = |event: Event| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        match event {
            Event::Baseline(s, Ok(_)) => {
                eprintln!("[{n}/{total}] {}: an executable links", s.target)
            }
            Event::Baseline(s, Err(e)) => eprintln!("[{n}/{total}] {}: SKIPPED: {e}", s.target),
            Event::Probe(s, p, Ok(c)) => eprintln!(
                "[{n}/{total}] {} {}: {} ({})",
                s.target,
                p.name,
                if c.available { "yes" } else { "no" },
                c.note.as_deref().unwrap_or("")
            ),
            Event::Probe(s, p, Err(e)) => eprintln!("[{n}/{total}] {} {}: {e}", s.target, p.name),
        }
    };
    let started = std::time::Instant::now();
    let outcomes = linkcheck::run(&zig, &sysroots, jobs, &progress);
    let mut failed = false;
    for (sysroot, outcome) in outcomes {
        match outcome {
            Outcome::Skipped(reason) => {
                eprintln!("linkcheck: no column for {}: {reason}", sysroot.target);
                // A report stored by an earlier run is no evidence either.
                let stale = out.join(sysroot.report_file_name());
                match std::fs::remove_file(&stale) {
                    Ok(()) => eprintln!("linkcheck: removed {}", stale.display()),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(format!("removing {}: {e}", stale.display()).into()),
                }
            }
            Outcome::Checked {
                report,
                undetermined,
                problems,
            } => {
                let path = out.join(sysroot.report_file_name());
                let mut json = serde_json::to_string_pretty(&report)?;
                json.push('\n');
                spawnmatrix::atomic::write(&path, json.as_bytes())
                    .map_err(|e| format!("writing {}: {e}", path.display()))?;
                let yes = report.capabilities.values().filter(|c| c.available).count();
                outln!(
                    "{}: {yes} of {} available, {} undetermined -> {}",
                    sysroot.target,
                    report.capabilities.len(),
                    undetermined.len(),
                    path.display()
                )?;
                for p in &problems {
                    eprintln!("linkcheck: {}: {p}", sysroot.target);
                }
                failed |= !problems.is_empty();
            }
        }
    }
    eprintln!("linkcheck: done in {:.1}s", started.elapsed().as_secs_f64());
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
