//! `spawnmatrix bench`: spawn cost per method and parent size, as Markdown (or JSON) on
//! stdout and, with `--out`, as JSON, Markdown and SVG files written atomically.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use spawnmatrix::bench::{self, BenchOptions, Preset, DEFAULT_SIZES};
use spawnmatrix::report::Perf;

use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// Parent sizes, comma-separated; K, M, G and T are powers of 1024 (`0,256M,1G`).
    /// The memory is allocated and touched in this process before measuring. A size may
    /// name a shape: `fragmented:1G` (64 KiB mappings, alternately read-only and
    /// read-write, all touched) or `reserved:64G` (PROT_NONE, never touched).
    #[arg(long, default_value = DEFAULT_SIZES)]
    sizes: String,
    /// Measured spawns per method and parent size.
    #[arg(long, default_value_t = 200)]
    iterations: u32,
    /// Unmeasured spawns per method and parent size, first.
    #[arg(long, default_value_t = 20)]
    warmup: u32,
    /// What each spawn runs.
    #[arg(long, value_enum, default_value_t = Preset::Spawn)]
    preset: Preset,
    /// Only these methods, comma-separated (the floor is always measured).
    #[arg(long, value_delimiter = ',')]
    methods: Option<Vec<String>>,
    /// Print the report's perf rows as JSON on stdout instead of the Markdown table.
    #[arg(long, conflicts_with = "gate")]
    json: bool,
    /// Also write bench[-PRESET].json, .md and .svg into this folder (created if missing).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
    /// Let the scheduler place the benchmark and its children on any CPU (by default they
    /// share one, which makes repeated runs agree).
    #[arg(long)]
    no_pin: bool,
    /// Measure cost at scale instead: 1/2/4/8 threads spawning at once, 0/1k/10k environment
    /// variables and arguments, 0/10k open fds; shared:auto, std and libc side by side.
    /// `--iterations` is then the spawns per spawner and point; `--out` gets
    /// bench-scale.{json,md} and one bench-scale-<dimension>.svg per dimension.
    #[arg(long)]
    scale: bool,
    /// Exit 1 unless shared:auto is within 1.25× of the floor at every size and grows at
    /// most 1.15× from the smallest size to the largest (the CI performance gate).
    #[arg(long)]
    gate: bool,
}

pub fn run(args: Args) -> CliResult {
    if args.scale {
        return run_scale(&args);
    }
    let options = BenchOptions {
        sizes: bench::parse_parents(&args.sizes)?,
        iterations: args.iterations,
        warmup: args.warmup,
        preset: args.preset,
        methods: args.methods,
        true_program: None,
        progress: !args.quiet,
        pin: !args.no_pin,
    };
    let m = bench::measure(&options)?;
    let json = serde_json::to_string_pretty(&m.perf)? + "\n";
    let markdown = bench::markdown::markdown(&m);
    if let Some(dir) = &args.out {
        write_outputs(dir, args.preset, &json, &markdown, &bench::svg::svg(&m)?)?;
    }
    out!("{}", if args.json { &json } else { &markdown })?;
    if args.gate {
        return Ok(gate(&m)?);
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the gate's checks (with the load average around the run) and its exit code.
fn gate(m: &bench::Measurement) -> std::io::Result<ExitCode> {
    use spawnmatrix::bench::targets::{self, Verdict};
    let checks = targets::gate(&m.perf);
    let load = |l: Option<f64>| l.map_or(String::from("-"), |l| format!("{l:.2}"));
    outln!(
        "gate (load average {} before, {} after; pinned to CPU {}):",
        load(m.load_before),
        load(m.load_after),
        m.perf
            .pinned_cpu
            .map_or(String::from("none"), |c| c.to_string())
    )?;
    let mut passed = true;
    for c in &checks {
        let mark = match c.verdict {
            Verdict::Met => "ok  ",
            Verdict::Missed | Verdict::NotMeasured => {
                passed = false;
                "FAIL"
            }
        };
        outln!("  {mark} {}: {}", c.target, c.detail)?;
    }
    Ok(if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The short run that gives a report its perf rows (`probe --bench`, the main job):
/// [`BenchOptions::quick`] at `sizes`, with progress on stderr.
pub(super) fn short(sizes: &str) -> Result<Perf, Box<dyn std::error::Error>> {
    let options = BenchOptions {
        sizes: bench::parse_parents(sizes)?,
        progress: true,
        ..BenchOptions::quick()
    };
    Ok(bench::run(&options)?)
}

fn write_outputs(dir: &Path, preset: Preset, json: &str, md: &str, svg: &str) -> CliResult {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("creating output folder {}: {e}", dir.display()))?;
    let stem = match preset {
        Preset::Spawn => "bench".to_string(),
        other => format!("bench-{}", other.name()),
    };
    let paths = ["json", "md", "svg"].map(|ext| dir.join(format!("{stem}.{ext}")));
    spawnmatrix::atomic::write_all(&[
        (&paths[0], json.as_bytes()),
        (&paths[1], md.as_bytes()),
        (&paths[2], svg.as_bytes()),
    ])
    .map_err(|e| format!("writing {}: {e}", paths[0].with_extension("*").display()))?;
    Ok(ExitCode::SUCCESS)
}

fn run_scale(args: &Args) -> CliResult {
    use spawnmatrix::bench::scale::{self, ScaleOptions};
    let mut options = ScaleOptions::new(spawnmatrix::child::true_path()?);
    options.spawns = args.iterations;
    options.progress = !args.quiet;
    let s = scale::measure(&options)?;
    let md = scale::render::markdown(&s);
    let json = serde_json::to_string_pretty(&s)? + "\n";
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("creating output folder {}: {e}", dir.display()))?;
        let mut files = vec![
            (dir.join("bench-scale.json"), json.clone().into_bytes()),
            (dir.join("bench-scale.md"), md.clone().into_bytes()),
        ];
        for t in &s.tables {
            let svg = scale::render::svg(t)?;
            files.push((
                dir.join(format!("bench-scale-{}.svg", t.dimension)),
                svg.into_bytes(),
            ));
        }
        let refs: Vec<(&Path, &[u8])> = files
            .iter()
            .map(|(p, b)| (p.as_path(), b.as_slice()))
            .collect();
        spawnmatrix::atomic::write_all(&refs)
            .map_err(|e| format!("writing {}: {e}", dir.join("bench-scale.*").display()))?;
    }
    out!("{}", if args.json { &json } else { &md })?;
    Ok(ExitCode::SUCCESS)
}
