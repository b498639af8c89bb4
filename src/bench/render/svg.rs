//! The SVG plot: median spawn cost against parent size, one line per method, on a log scale
//! (fork grows by orders of magnitude while the others stay flat).

use plotters::prelude::*;

use super::super::size::{format_size, MIB};
use super::super::{BenchError, Measurement};
use super::{by_method, micros};

const SIZE: (u32, u32) = (960, 600);

/// Renders `m` as an SVG document.
pub fn svg(m: &Measurement) -> Result<String, BenchError> {
    let mut out = String::new();
    draw(m, &mut out).map_err(|e| BenchError::Render(e.to_string()))?;
    Ok(out)
}

fn draw(m: &Measurement, out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let series = by_method(&m.perf);
    let medians = m.perf.entries.iter().map(|e| e.median_us);
    let lo = medians.clone().fold(f64::INFINITY, f64::min).max(1e-3) / 1.5;
    let hi = medians.fold(0.0, f64::max).max(lo * 2.0) * 1.5;
    let last = m.sizes.len().saturating_sub(1) as f64;
    let sizes = m.sizes.clone();
    let label = move |x: &f64| -> String {
        let i = x.round();
        if (x - i).abs() > 1e-6 || i < 0.0 {
            return String::new();
        }
        sizes
            .get(i as usize)
            .map_or(String::new(), |&s| format_size(s))
    };

    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "spawn + wait, median ({} preset; floor {})",
                m.preset.name(),
                m.perf.floor
            ),
            ("sans-serif", 20),
        )
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.4f64..last + 0.4, (lo..hi).log_scale())?;
    chart
        .configure_mesh()
        .x_labels(m.sizes.len().max(2) * 2 + 1)
        .x_label_formatter(&label)
        .y_label_formatter(&|us: &f64| micros(*us))
        .light_line_style(WHITE)
        .x_desc("parent size (touched memory)")
        .y_desc("median µs (log scale)")
        .draw()?;
    for (i, (name, entries)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(f64, f64)> = entries
            .iter()
            .filter_map(|e| {
                let x = m.sizes.iter().position(|&s| s / MIB == e.parent_mib)?;
                Some((x as f64, e.median_us))
            })
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
            .label(*name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, color.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
