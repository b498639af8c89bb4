//! `spawnmatrix caps-header`: prints the generated `spawnmatrix_caps.h`, or with
//! `--check-sysroots` compiles a header with `zig cc` against every stored link column's
//! sysroot and fails when a `SPAWNMATRIX_HAVE_<X>` differs from that column's link evidence
//! (what `ci/checks/46-caps-header.sh` runs).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use spawnmatrix::caps_header::check::{self, Outcome};
use spawnmatrix::linkcheck::Zig;

use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// Check the header against every link column's sysroot instead of printing it.
    #[arg(long)]
    check_sysroots: bool,
    /// The header to check [default: the working tree's docs/spawnmatrix_caps.h].
    #[arg(long, value_name = "FILE")]
    header: Option<PathBuf>,
    /// The platform families and stored reports [default: the working tree's targets/].
    #[arg(long, value_name = "DIR")]
    targets: Option<PathBuf>,
    /// Check only the link columns whose file name contains this text (repeatable).
    #[arg(long, value_name = "TEXT", requires = "check_sysroots")]
    only: Vec<String>,
    /// zig processes at once [default: the number of CPUs].
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

pub fn run(args: Args) -> CliResult {
    let targets = super::stored::targets_dir(args.targets.as_deref())?;
    if !args.check_sysroots {
        let built = super::publish::build(&targets)?;
        out!("{}", spawnmatrix::caps_header::c::render(&built.caps))?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = args.header.unwrap_or_else(|| {
        targets
            .parent()
            .map_or_else(|| PathBuf::from("docs"), |p| p.join("docs"))
            .join("spawnmatrix_caps.h")
    });
    let header =
        std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let zig = Zig::find()?;
    let reports = check::link_reports(&targets.join("reports"))?;
    if reports.is_empty() {
        return Err(format!(
            "{}: no link-*.json reports",
            targets.join("reports").display()
        )
        .into());
    }
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
    });
    let start = Instant::now();
    let results = check::check_all(&zig, &header, &reports, jobs);
    let (mut compared, mut values, mut no_macro, mut failed) = (0, 0, 0, 0);
    for (name, outcome) in &results {
        let mark = if outcome.passed() { "ok  " } else { "FAIL" };
        match outcome {
            Outcome::Compared {
                compared: n,
                mismatches,
                note,
            } => {
                compared += 1;
                values += n;
                let note = note.as_deref().map_or(String::new(), |n| format!(" ({n})"));
                outln!(
                    "{mark} {name}: compiled; {}/{n} HAVE macros equal the link evidence{note}",
                    n - mismatches.len()
                )?;
                for m in mismatches {
                    outln!("       {m}")?;
                }
            }
            Outcome::NoMacro { family, claims } => {
                no_macro += 1;
                outln!(
                    "{mark} {name}: compiled; {family} has no version macro, so the header must \
                     claim nothing (SPAWNMATRIX_CAPS_UNKNOWN_LIBC){}",
                    match claims.is_empty() {
                        true => String::new(),
                        false => format!(": it claims {}", claims.join(", ")),
                    }
                )?;
            }
            Outcome::Failed(why) => {
                failed += 1;
                outln!("{mark} {name}: NOT COMPILED/CHECKED: {why}")?;
            }
        }
    }
    let bad = results.iter().filter(|(_, o)| !o.passed()).count();
    outln!(
        "{} link columns ({}, zig {}): {compared} compiled and compared ({values} HAVE macros), \
         {no_macro} without a version macro, {failed} not compiled; {bad} failing; {:.1} s",
        results.len(),
        path.display(),
        zig.version,
        start.elapsed().as_secs_f64()
    )?;
    Ok(match bad {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}
