//! `spawnmatrix fuzz`: the long differential-fuzzing run. Random file-action and attribute
//! sequences go through the fork+exec reference, the raw libc and the shared implementation;
//! divergences are explained by documented libc differences or reported (shrunk) as bugs.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use spawnmatrix::fuzz::run::{fuzz, Runner};

use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// How many sequences to draw.
    #[arg(long, default_value_t = 10_000)]
    sequences: usize,
    /// The generator's seed; the same seed replays the same sequences. Default: from the clock
    /// (printed, so the run can be replayed).
    #[arg(long)]
    seed: Option<u64>,
    /// Also write the summary as JSON to this file (atomically).
    #[arg(long)]
    json: Option<PathBuf>,
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

/// Exits 0 when no divergence is left unexplained, 1 otherwise.
pub fn run(args: Args) -> CliResult {
    let seed = args.seed.unwrap_or_else(clock_seed);
    eprintln!(
        "spawnmatrix fuzz: seed {seed}, {} sequences",
        args.sequences
    );
    let helper = spawnmatrix::child::helper_path()?;
    let runner = Runner::new(&helper, Runner::all_subjects())?;
    let total = args.sequences;
    let summary = fuzz(&runner, seed, total, |done| {
        if done % 500 == 0 && done < total {
            eprintln!("  {done}/{total}");
        }
    })?;
    println!("{summary}");
    if let Some(path) = &args.json {
        spawnmatrix::atomic::write(path, &serde_json::to_vec_pretty(&summary)?)?;
    }
    Ok(if summary.unexplained.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
