//! The `--scale` results as Markdown tables (one per dimension) and one SVG line chart per
//! dimension (plotters, SVG backend only, like the parent-size plot).

use plotters::prelude::*;

use super::super::render::{grouped, micros, svg, times};
use super::{Point, Scale, Table};

/// Markdown: per dimension, one row per spawner, one column per point.
pub fn markdown(scale: &Scale) -> String {
    let load = |l: Option<f64>| l.map_or(String::from("-"), |l| format!("{l:.2}"));
    let mut out = format!(
        "# Spawn cost at scale\n\n{} spawns per spawner and point, started {}; load average {} before, {} after.\n",
        scale.spawns,
        scale.started_at,
        load(scale.load_before),
        load(scale.load_after)
    );
    for t in &scale.tables {
        out.push_str(&table(t));
    }
    out
}

fn table(t: &Table) -> String {
    let mut out = format!("\n## {}\n\n", t.title);
    if let Some(why) = &t.skipped {
        out.push_str(&format!("Not measured: {why}\n\n"));
    }
    let at = xs(t);
    if at.is_empty() {
        return out;
    }
    let threads = t.dimension == "threads";
    out.push_str(&format!("| {} |", t.dimension));
    for x in &at {
        out.push_str(&format!(" {x} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(at.len()));
    out.push('\n');
    for (name, pts) in series(t) {
        out.push_str(&format!("| `{name}` |"));
        for p in pts {
            let cell = if threads {
                format!(
                    "{:.0}/s ({} of 1 thread)",
                    p.spawns_per_second,
                    times(p.ratio_to_first)
                )
            } else {
                let libc = p
                    .ratio_to_libc
                    .map_or(String::new(), |r| format!(", {} libc", times(r)));
                format!(
                    "{} µs ({}{libc})",
                    micros(p.median_us),
                    times(p.ratio_to_first)
                )
            };
            out.push_str(&format!(" {cell} |"));
        }
        out.push('\n');
    }
    out.push_str(if threads {
        "\nSpawns per second of the whole process (wall time of each round over its spawns, median of the rounds); in brackets: over 1 thread.\n"
    } else {
        "\nMedian µs per spawn + wait; in brackets: over the first column, and over the libc at the same point.\n"
    });
    out
}

/// The dimension's points, in order.
fn xs(t: &Table) -> Vec<u64> {
    let mut at: Vec<u64> = t.points.iter().map(|p| p.at).collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// Points per spawner, spawners in first-seen order.
fn series(t: &Table) -> Vec<(&str, Vec<&Point>)> {
    grouped(&t.points, |p| &p.spawner)
}

const COLOURS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

/// One chart for `t`: spawns/s for threads, median µs per spawn otherwise.
pub fn svg(t: &Table) -> Result<String, Box<dyn std::error::Error>> {
    let mut out = String::new();
    {
        let at = xs(t);
        let threads = t.dimension == "threads";
        let y = |p: &Point| {
            if threads {
                p.spawns_per_second
            } else {
                p.median_us
            }
        };
        let hi = t.points.iter().map(y).fold(0.0, f64::max).max(1.0) * 1.1;
        let root = SVGBackend::with_string(&mut out, (900, 560)).into_drawing_area();
        root.fill(&WHITE)?;
        let last = at.len().saturating_sub(1) as f64;
        let label = |x: &f64| -> String {
            let i = x.round();
            if (x - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            at.get(i as usize).map_or(String::new(), |v| v.to_string())
        };
        let mut chart = ChartBuilder::on(&root)
            .caption(&t.title, ("sans-serif", 18))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(-0.3f64..last + 0.3, 0.0..hi)?;
        chart
            .configure_mesh()
            .x_labels(at.len().max(2) * 2 + 1)
            .x_label_formatter(&label)
            .light_line_style(WHITE)
            .x_desc(t.dimension)
            .y_desc(if threads {
                "spawns/s (process)"
            } else {
                "median µs per spawn + wait"
            })
            .draw()?;
        for (i, (name, pts)) in series(t).into_iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let line: Vec<(f64, f64)> = pts
                .iter()
                .filter_map(|p| Some((at.iter().position(|x| *x == p.at)? as f64, y(p))))
                .collect();
            svg::line(&mut chart, name, line, colour)?;
        }
        svg::legend(&mut chart)?;
        root.present()?;
    }
    Ok(out)
}
