//! What a spawn costs, per method and per parent size.
//!
//! Every method spawns the same workload (by default a tiny static program that only exits)
//! and waits for it, `iterations` times after a warm-up, at each parent size. The parent is
//! this process: before measuring a size it maps and touches that much memory, so fork-like
//! methods pay for real page tables. Methods run round-robin in blocks, so noise falls on all
//! of them alike. Every median is divided by the floor's median at the same size, measured in
//! the same run: ratios are the headline, not absolute microseconds.
//!
//! [`run`] gives the [`Perf`] rows a report carries; [`measure`] adds what the command line
//! prints (preset, load, skipped methods).

use std::path::PathBuf;

use crate::report::{Perf, PerfEntry};

mod affinity;
mod ballast;
mod clock;
mod error;
mod memory;
mod methods;
mod parent;
mod pipe;
mod plan;
mod progress;
mod reap;
mod render;
mod runner;
pub mod scale;
#[cfg_attr(
    not(any(target_os = "linux", spawnmatrix_vfork_shim)),
    allow(dead_code)
)]
mod signals;
mod size;
mod stats;
pub mod targets;
mod workload;

pub use error::BenchError;
pub use methods::Skipped;
pub use parent::{entry_label, parse_parent, parse_parents, Parent};
pub use render::{markdown, svg};
pub use size::{format_size, parse_size, DEFAULT_SIZES, MIB};
pub use stats::Summary;
pub use workload::Preset;

use memory::Limits;
use methods::Method;
use progress::Progress;
use workload::Workload;

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// The parents to measure at: sizes in bytes (whole MiB) and their shapes.
    pub sizes: Vec<Parent>,
    /// Measured spawns per method and size.
    pub iterations: u32,
    /// Unmeasured spawns per method and size, first.
    pub warmup: u32,
    pub preset: Preset,
    /// Only these methods (by name), plus the floor; `None` for all.
    pub methods: Option<Vec<String>>,
    /// The program that only exits; `None` for [`crate::child::true_path`].
    pub true_program: Option<PathBuf>,
    /// Progress lines on stderr.
    pub progress: bool,
    /// Pin the measuring thread, and so its children, to one CPU (see `affinity`).
    pub pin: bool,
}

impl Default for BenchOptions {
    fn default() -> BenchOptions {
        BenchOptions {
            sizes: parse_parents(DEFAULT_SIZES).unwrap_or_default(),
            iterations: 200,
            warmup: 20,
            preset: Preset::default(),
            methods: None,
            true_program: None,
            progress: false,
            pin: true,
        }
    }
}

impl BenchOptions {
    /// A short run for a probe that includes perf rows: parent sizes 0 and 256 MiB, 50
    /// iterations after 5 warm-up spawns (seconds, not minutes, on a quiet machine).
    pub fn quick() -> BenchOptions {
        BenchOptions {
            sizes: vec![Parent::touched(0), Parent::touched(256 * MIB)],
            iterations: 50,
            warmup: 5,
            ..BenchOptions::default()
        }
    }
}

/// A finished run: the report rows and the context a reader needs to trust them.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub perf: Perf,
    pub preset: Preset,
    pub warmup: u32,
    /// The parents measured at.
    pub sizes: Vec<Parent>,
    /// Methods that could not run here, and why.
    pub skipped: Vec<Skipped>,
    /// Notes from methods, by method name (such as which strategy `shared:auto` chose).
    pub notes: Vec<(String, String)>,
    /// One-minute load average before and after the run (noise indicator), where known.
    pub load_before: Option<f64>,
    pub load_after: Option<f64>,
    pub started_at: String,
}

/// Measures and returns the perf rows for a report.
pub fn run(options: &BenchOptions) -> Result<Perf, BenchError> {
    measure(options).map(|m| m.perf)
}

/// Measures every method at every size; see the module documentation.
pub fn measure(options: &BenchOptions) -> Result<Measurement, BenchError> {
    validate(options)?;
    let limits = Limits::current();
    for &parent in &options.sizes {
        limits.check(parent)?;
    }
    let true_program = match &options.true_program {
        Some(p) => p.clone(),
        None => crate::child::true_path().map_err(|source| BenchError::Workload {
            what: "finding the program that only exits (spawnmatrix-true)".to_string(),
            source,
        })?,
    };
    let workload = Workload::new(options.preset, &true_program)?;
    let Selection {
        mut methods,
        skipped,
    } = select(&workload, options.methods.as_deref())?;
    let floor = methods[0].name();
    let pin = match options.pin {
        true => affinity::Pin::to_one_cpu().map_err(BenchError::Pin)?,
        false => None,
    };
    let mut progress = Progress::new(options.progress);
    let started_at = crate::report::now_rfc3339();
    let load_before = load_average();
    let mut entries = Vec::new();
    for &parent in &options.sizes {
        progress.phase(format!("parent size {}: mapping memory", parent.label()));
        Limits::current().check(parent)?;
        let ballast = ballast::Ballast::new(parent).map_err(|source| BenchError::Ballast {
            size: parent.label(),
            source,
        })?;
        progress.phase(format!(
            "parent size {}: {} methods x {} iterations",
            parent.label(),
            methods.len(),
            options.iterations
        ));
        let samples = runner::measure(
            &mut methods,
            &workload,
            options.warmup,
            options.iterations,
            &mut progress,
        )?;
        drop(ballast);
        entries.extend(entries_for(&methods, &samples, parent)?);
    }
    let pinned_cpu = pin.as_ref().and_then(|p| u32::try_from(p.cpu()).ok());
    drop(pin);
    Ok(Measurement {
        perf: Perf {
            floor: floor.to_string(),
            iterations: options.iterations,
            pinned_cpu,
            entries,
        },
        preset: options.preset,
        warmup: options.warmup,
        sizes: options.sizes.clone(),
        skipped,
        notes: methods
            .iter()
            .filter_map(|m| Some((m.name().to_string(), m.note()?)))
            .collect(),
        load_before,
        load_after: load_average(),
        started_at,
    })
}

fn validate(options: &BenchOptions) -> Result<(), BenchError> {
    if options.iterations == 0 {
        return Err(BenchError::BadCount {
            what: "iterations",
            reason: "must be at least 1".to_string(),
        });
    }
    if options.sizes.is_empty() {
        return Err(BenchError::BadSize {
            input: String::new(),
            reason: "no parent sizes given".to_string(),
        });
    }
    Ok(())
}

/// The methods that will run (floor first) and those that cannot run here.
struct Selection {
    methods: Vec<Box<dyn Method>>,
    skipped: Vec<Skipped>,
}

/// The methods to run, floor first, and those that cannot run here. Unknown names in
/// `wanted` are an error listing the names available.
fn select(workload: &Workload, wanted: Option<&[String]>) -> Result<Selection, BenchError> {
    let mut methods = Vec::new();
    let mut skipped = Vec::new();
    for candidate in methods::all(workload) {
        match candidate {
            Ok(m) => methods.push(m),
            Err(s) => skipped.push(s),
        }
    }
    let floor = methods::FLOOR_PREFERENCE
        .iter()
        .find_map(|name| methods.iter().position(|m| m.name() == *name))
        .ok_or_else(|| BenchError::UnknownMethod {
            name: "floor".to_string(),
            available: names(&methods),
        })?;
    let floor = methods.remove(floor);
    if let Some(wanted) = wanted {
        let known = names(&methods);
        for name in wanted {
            let here = methods.iter().any(|m| m.name() == name)
                || floor.name() == name
                || skipped.iter().any(|s| s.name == name);
            if !here {
                return Err(BenchError::UnknownMethod {
                    name: name.clone(),
                    available: format!("{}, {known}", floor.name()),
                });
            }
        }
        methods.retain(|m| wanted.iter().any(|w| w == m.name()));
        skipped.retain(|s| wanted.iter().any(|w| w == s.name));
    }
    methods.insert(0, floor);
    Ok(Selection { methods, skipped })
}

fn names(methods: &[Box<dyn Method>]) -> String {
    methods
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One report row per method at `parent`; the floor is `methods[0]`.
fn entries_for(
    methods: &[Box<dyn Method>],
    samples: &[Vec<u64>],
    parent: Parent,
) -> Result<Vec<PerfEntry>, BenchError> {
    let summaries: Vec<Option<Summary>> = samples.iter().map(|s| Summary::of_nanos(s)).collect();
    let floor = summaries.first().copied().flatten();
    methods
        .iter()
        .zip(summaries)
        .filter_map(|(m, s)| Some((m, s?)))
        .map(|(m, s)| {
            let ratio = floor
                .and_then(|f| stats::ratio(s.median_us, f.median_us))
                .ok_or(BenchError::NoFloor {
                    size: parent.label(),
                })?;
            Ok(PerfEntry {
                strategy: m.name().to_string(),
                parent_mib: parent.bytes / MIB,
                shape: parent.shape,
                min_us: s.min_us,
                median_us: s.median_us,
                p90_us: s.p90_us,
                ratio_to_floor: ratio,
            })
        })
        .collect()
}

/// The one-minute load average, where the platform reports it.
pub fn load_average() -> Option<f64> {
    let mut load = [0.0f64; 3];
    // SAFETY: `load` has room for the three values asked for.
    (unsafe { libc::getloadavg(load.as_mut_ptr(), 3) } >= 1).then_some(load[0])
}
