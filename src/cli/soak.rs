//! `spawnmatrix soak`: many spawns of the program that only exits, from several threads, with
//! resident memory, open fds and children sampled along the way. Exits 1 when any of them
//! grew (see `fuzz::soak`), 0 when all stayed flat.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use spawnmatrix::fuzz::soak::{self, Sample, SoakConfig};

use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// Spawns in all.
    #[arg(long, default_value_t = 1_000_000)]
    spawns: u64,
    /// Threads spawning at once.
    #[arg(long, default_value_t = 4)]
    threads: usize,
    /// The run fails when the spawns have not finished by then (`90s`, `30m`).
    #[arg(long, value_parser = humantime::parse_duration, default_value = "60m")]
    time: Duration,
    /// Samples taken over the run.
    #[arg(long, default_value_t = 100)]
    samples: u64,
    /// Print every sample and the verdict as JSON on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Also write every sample and the verdict as JSON to DIR/soak.json (atomically).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

fn line(what: &str, s: &Sample) -> String {
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| String::from("-"));
    format!(
        "  {what:<5} after {:>9} spawns ({:>7.1} s): RSS {:>8} KiB, {:>3} open fds, {} children",
        s.spawns,
        s.seconds,
        or_dash(s.rss_bytes.map(|b| (b / 1024).to_string())),
        s.open_fds,
        or_dash(s.children.map(|c| c.to_string())),
    )
}

pub fn run(args: Args) -> CliResult {
    let program = spawnmatrix::child::true_path()?;
    let config = SoakConfig {
        spawns: args.spawns,
        threads: args.threads,
        time: args.time,
        samples: args.samples,
    };
    let load_before = spawnmatrix::bench::load_average();
    eprintln!(
        "spawnmatrix soak: {} spawns of {} from {} threads, at most {}",
        config.spawns,
        program.display(),
        config.threads,
        humantime::format_duration(config.time)
    );
    let result = soak::run(&config, &program);
    let problems = result.judge();
    let json = serde_json::to_string_pretty(&serde_json::json!({
        "soak": result, "problems": problems
    }))? + "\n";
    match args.json {
        true => out!("{json}")?,
        false => out!("{}", text(&result, &problems, load_before))?,
    }
    if let Some(dir) = &args.out {
        super::out::write_into(dir, "soak.json", json.as_bytes())?;
    }
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The run as a person reads it: rate, the start/warm/end samples, peaks and every problem.
fn text(result: &soak::Soak, problems: &[String], load_before: Option<f64>) -> String {
    let mut out = format!(
        "soak: {} spawns in {:.1} s ({:.0}/s) from {} threads; load average {} before, {} after\n",
        result.spawns,
        result.seconds,
        result.spawns as f64 / result.seconds.max(1e-9),
        result.threads,
        load_before.map_or(String::from("-"), |l| format!("{l:.1}")),
        spawnmatrix::bench::load_average().map_or(String::from("-"), |l| format!("{l:.1}")),
    );
    for (what, sample) in [
        ("start", &result.start),
        ("warm", &result.warm),
        ("end", &result.end),
    ] {
        out.push_str(&line(what, sample));
        out.push('\n');
    }
    let peak = |f: fn(&Sample) -> usize| result.samples.iter().map(f).max().unwrap_or(0);
    out.push_str(&format!(
        "  peaks: {} open fds, {} children; nothing left to reap: {}\n",
        peak(|s| s.open_fds),
        peak(|s| s.children.unwrap_or(0)),
        result.nothing_to_reap
    ));
    for p in problems {
        out.push_str(&format!("  NOT FLAT: {p}\n"));
    }
    out
}
