//! The Markdown form: a summary table (median and ratio per method and size), the detail
//! (min, median, p90) and the conditions of the run.

use std::fmt::Write as _;

use super::super::parent::entry_label;
use super::super::targets::{self, Verdict};
use super::super::Measurement;
use super::{by_method, micros, times};

/// Renders `m` as a Markdown section.
pub fn markdown(m: &Measurement) -> String {
    let perf = &m.perf;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## Spawn cost: preset `{}`, floor `{}`\n",
        m.preset.name(),
        perf.floor
    );
    let _ = writeln!(
        out,
        "Spawn + wait, median µs over {} iterations (after {} warm-up), and the ratio to the \
         floor's median at the same parent size, measured in the same run.\n",
        perf.iterations, m.warmup
    );
    let series = by_method(perf);
    out.push_str("| method |");
    for parent in &m.sizes {
        let _ = write!(out, " {} |", parent.label());
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(m.sizes.len()));
    out.push('\n');
    for (name, entries) in &series {
        let _ = write!(out, "| `{name}` |");
        for parent in &m.sizes {
            match entries.iter().find(|e| parent.measured(e)) {
                Some(e) => {
                    let _ = write!(
                        out,
                        " {} ({}) |",
                        micros(e.median_us),
                        times(e.ratio_to_floor)
                    );
                }
                None => out.push_str(" — |"),
            }
        }
        out.push('\n');
    }
    out.push_str("\n<details><summary>min / median / p90 (µs)</summary>\n\n");
    out.push_str(
        "| method | parent | min | median | p90 | × floor |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for (name, entries) in &series {
        for e in entries {
            let _ = writeln!(
                out,
                "| `{name}` | {} | {} | {} | {} | {} |",
                entry_label(e),
                micros(e.min_us),
                micros(e.median_us),
                micros(e.p90_us),
                times(e.ratio_to_floor)
            );
        }
    }
    out.push_str("\n</details>\n\n");
    let checks = targets::evaluate(perf);
    if !checks.is_empty() {
        let _ = writeln!(
            out,
            "Targets for `{}` (judged on medians; the ratio of minima, which noise hardly \
             moves, is shown beside):\n",
            targets::SUBJECT
        );
        for c in checks {
            let mark = match c.verdict {
                Verdict::Met => "met",
                Verdict::Missed => "**missed**",
                Verdict::NotMeasured => "not measured",
            };
            let _ = writeln!(out, "- {}: {mark} ({})", c.target, c.detail);
        }
        out.push('\n');
    }
    let load = |l: Option<f64>| l.map_or("unknown".to_string(), |l| format!("{l:.2}"));
    let _ = writeln!(
        out,
        "Started {}; load average (1 min) {} before, {} after, on {} CPUs; {}.",
        m.started_at,
        load(m.load_before),
        load(m.load_after),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        perf.pinned_cpu
            .map_or("not pinned".to_string(), |cpu| format!(
                "the benchmark and its children pinned to CPU {cpu}"
            ))
    );
    if let Some(worst) = perf
        .entries
        .iter()
        .filter(|e| e.strategy == perf.floor && e.median_us > 0.0)
        .map(|e| e.p90_us / e.median_us)
        .max_by(f64::total_cmp)
    {
        let _ = writeln!(
            out,
            "\nNoise: the floor's p90 is up to {worst:.2}× its median in this run; a busy \
             machine inflates every figure (spawns wait for a CPU), ratios less so."
        );
    }
    if cfg!(debug_assertions) {
        out.push_str(
            "\nThis is a debug build: this crate's own code (the parent side of `raw:*`, all of \
             `shared:*`) runs unoptimised; build with `--release` to measure.\n",
        );
    }
    for (name, note) in &m.notes {
        let _ = writeln!(out, "\n`{name}`: {note}.");
    }
    for s in &m.skipped {
        let _ = writeln!(out, "\nNot measured: `{}`: {}.", s.name, s.reason);
    }
    out
}
