//! `spawnmatrix probe`: what this process can use of the spawn family, as a human summary
//! (no cases run) or as one JSON `Report` (the unit `spawnmatrix matrix` merges), which runs
//! the conformance cases unless `--no-cases`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use spawnmatrix::platform::provenance::{self, provenance_from_env};
use spawnmatrix::report::{self, Provenance, Report, SandboxRun};
use spawnmatrix::{caps, child, conformance, platform, spawn};

use super::stored::Tree;
use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// Print the JSON report on stdout instead of the summary (runs the cases).
    #[arg(long)]
    json: bool,
    /// Also write the JSON report to DIR/report.json (atomically; runs the cases).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// How this run is observed: native, container, ci or emulated [default: $SPAWNMATRIX_PROVENANCE,
    /// else native].
    #[arg(long, value_name = "KIND")]
    provenance: Option<String>,
    /// Container image, CI runner label or emulator and kernel (needed for all but native)
    /// [default: $SPAWNMATRIX_IMAGE].
    #[arg(long, value_name = "NAME")]
    image: Option<String>,
    /// Free text naming the machine or job [default: $SPAWNMATRIX_HOST].
    #[arg(long, value_name = "TEXT")]
    host: Option<String>,
    /// Leave the conformance cases out of the JSON report (they take a minute).
    #[arg(long)]
    no_cases: bool,
    /// Exit 1 when a case leaves its expectation (a `fail` verdict: an outcome the target's
    /// expectation file, POSIX or the case's documented outcome does not allow), listing
    /// those cases on stderr. Runs the cases.
    #[arg(long, conflicts_with = "no_cases")]
    check: bool,
    #[command(flatten)]
    tree: Tree,
    /// Also measure spawn cost at these parent sizes (`0,256M`; 50 spawns per method and
    /// size) and put the perf rows in the report, as the main job does for this machine.
    #[arg(long, value_name = "SIZES")]
    bench: Option<String>,
    /// Also run the shared spawn and the raw libc under every sandbox profile (`spawnmatrix
    /// sandbox`, one process each) and put the `sandbox` rows in the report, as the main job
    /// does for this machine (Linux; the valgrind and qemu-user rows need those tools).
    #[arg(long)]
    sandbox: bool,
}

pub fn run(args: Args) -> CliResult {
    let with_cases = (args.json || args.out.is_some() || args.check) && !args.no_cases;
    let mut report = build_report(provenance_of(&args)?, with_cases.then_some(&args.tree))?;
    if let Some(sizes) = &args.bench {
        report.perf = Some(super::bench::short(sizes)?);
    }
    if args.sandbox {
        report.sandbox = sandbox_runs();
    }
    let json = serde_json::to_string_pretty(&report)? + "\n";
    if let Some(dir) = &args.out {
        super::out::write_into(dir, "report.json", json.as_bytes())?;
    }
    if args.json {
        out!("{json}")?;
    } else {
        out!("{}", summary(&report))?;
    }
    Ok(match args.check {
        true => check(&report),
        false => ExitCode::SUCCESS,
    })
}

/// `--check`: every case and subject whose verdict is `fail`, on stderr; exit 1 if any.
pub(super) fn check(report: &Report) -> ExitCode {
    let mut failed = 0;
    for (id, subjects) in &report.cases {
        for (subject, result) in subjects {
            if result.verdict == conformance::verdict::FAIL {
                failed += 1;
                let note = result.note.as_deref().unwrap_or("");
                eprintln!(
                    "spawnmatrix: check: {id} ({subject}): {} leaves its expectation: {note}",
                    result.outcome
                );
            }
        }
    }
    eprintln!(
        "spawnmatrix: check: {failed} of {} cases' results leave their expectation",
        report.cases.values().map(BTreeMap::len).sum::<usize>()
    );
    match failed {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

/// Flags win over the environment, field by field; `native` when neither says anything.
fn provenance_of(args: &Args) -> Result<Provenance, provenance::ProvenanceError> {
    let env = provenance_from_env()?;
    let Some(kind) = &args.provenance else {
        let mut p = env.unwrap_or_else(|| Provenance {
            kind: "native".to_string(),
            image: None,
            host: None,
        });
        p.image = args.image.clone().or(p.image);
        p.host = args.host.clone().or(p.host);
        return Ok(p);
    };
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    provenance::build(
        "--provenance",
        kind,
        args.image.clone().or_else(|| var("SPAWNMATRIX_IMAGE")),
        args.host.clone().or_else(|| var("SPAWNMATRIX_HOST")),
        "--image",
    )
}

/// The report for this process: platform and capabilities, and with a `tree` the
/// conformance cases found there, judged against its expectation files.
pub(super) fn build_report(
    provenance: Provenance,
    tree: Option<&Tree>,
) -> Result<Report, Box<dyn std::error::Error>> {
    let cases = match tree {
        Some(tree) => conformance::run_for_report(&tree.cases()?, &tree.targets()?)?,
        None => BTreeMap::new(),
    };
    Ok(Report {
        schema_version: report::SCHEMA_VERSION,
        suite_version: report::SUITE_VERSION.to_string(),
        generated_at: report::now_rfc3339(),
        platform: platform::detect_with(provenance),
        capabilities: report::Capability::observed_all(caps::detect()),
        cases,
        auto_strategy: auto_strategy(),
        perf: None,
        fuzz: None,
        sandbox: Default::default(),
        guest: None,
    })
}

/// The strategy `Auto` takes in this process, from one plain spawn of the `true` helper;
/// `None` (with the reason on stderr) when that spawn fails.
fn auto_strategy() -> Option<String> {
    let spawned = child::true_path().and_then(|program| {
        let mut child = spawn::Command::new(program).spawn()?;
        child.wait()?;
        Ok(child.strategy())
    });
    match spawned {
        Ok(strategy) => Some(strategy.name().to_string()),
        Err(e) => {
            eprintln!("probe: cannot tell which strategy Auto takes: {e}");
            None
        }
    }
}

/// A table a person reads: the platform, then one line per capability.
fn summary(report: &Report) -> String {
    let p = &report.platform;
    let mut out = String::new();
    let or_unknown = |v: &Option<String>| v.clone().unwrap_or_else(|| "unknown".to_string());
    let _ = writeln!(out, "os         {} {}", p.os, or_unknown(&p.os_version));
    let _ = writeln!(out, "kernel     {}", or_unknown(&p.kernel));
    let _ = writeln!(out, "arch       {} (target {})", p.arch, p.target);
    let _ = writeln!(
        out,
        "libc       {} {} ({})",
        p.libc.name,
        or_unknown(&p.libc.version),
        or_unknown(&p.libc.detail)
    );
    let _ = writeln!(out, "provenance {}", p.provenance.kind);
    let width = report
        .capabilities
        .keys()
        .map(String::len)
        .max()
        .unwrap_or(0);
    let _ = writeln!(out, "\n{:width$}  available  how", "capability");
    for (name, cap) in &report.capabilities {
        let yes = if cap.available { "yes" } else { "no" };
        let _ = write!(out, "{name:width$}  {yes:9}  {}", cap.how);
        if let Some(note) = &cap.note {
            let _ = write!(out, "  ({note})");
        }
        out.push('\n');
    }
    if let Some(perf) = &report.perf {
        let _ = writeln!(out, "\nspawn cost (median, ratio to {})", perf.floor);
        for e in &perf.entries {
            let _ = writeln!(
                out,
                "{:width$}  {:>6} MiB  {:>9.1} us  {:.2}x",
                e.strategy, e.parent_mib, e.median_us, e.ratio_to_floor
            );
        }
    }
    out
}

/// This machine's `sandbox` rows: the shared spawn under every seccomp profile, each in a
/// process of its own. Without them (a kernel or container that refuses the filter) the
/// column simply has no such rows; why is said on stderr.
#[cfg(target_os = "linux")]
pub(super) fn sandbox_runs() -> BTreeMap<String, SandboxRun> {
    let runs = std::env::current_exe().and_then(|exe| spawnmatrix::sandbox::record(&exe));
    runs.unwrap_or_else(|e| {
        eprintln!("spawnmatrix: no sandbox rows: {e}");
        BTreeMap::new()
    })
}

/// Seccomp profiles exist on Linux only.
#[cfg(not(target_os = "linux"))]
pub(super) fn sandbox_runs() -> BTreeMap<String, SandboxRun> {
    BTreeMap::new()
}
