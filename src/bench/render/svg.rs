//! The SVG plot, in two panels sharing the parent-size axis:
//! - top: median spawn cost of every method, on a log scale (fork grows by orders of
//!   magnitude while the others stay flat);
//! - bottom: the ratio to the floor of the methods that stay within `RATIO_CAP` of it, on a
//!   linear scale, where the differences between the fast methods are visible.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::super::{BenchError, Measurement};
use super::{by_method, micros};
use crate::report::PerfEntry;

const SIZE: (u32, u32) = (960, 1000);
/// Methods whose ratio ever exceeds this are left out of the ratio panel.
const RATIO_CAP: f64 = 3.0;
/// Distinct colours that read on white, one per method (cycled beyond twelve).
const COLOURS: [RGBColor; 12] = [
    RGBColor(0, 0, 0),
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 90, 50),
];

/// Each method with its colour index (its place among all methods, so a method keeps its
/// colour in both panels) and its entries.
type Series<'a> = Vec<(usize, &'a str, Vec<&'a PerfEntry>)>;

/// Renders `m` as an SVG document.
pub fn svg(m: &Measurement) -> Result<String, BenchError> {
    let mut out = String::new();
    draw(m, &mut out).map_err(|e| BenchError::Render(e.to_string()))?;
    Ok(out)
}

fn draw(m: &Measurement, out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let series: Series = by_method(&m.perf)
        .into_iter()
        .enumerate()
        .map(|(i, (name, entries))| (i, name, entries))
        .collect();
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(SIZE.1 * 55 / 100);

    let medians = m.perf.entries.iter().map(|e| e.median_us);
    let lo = medians.clone().fold(f64::INFINITY, f64::min).max(1e-3) / 1.5;
    let hi = medians.fold(0.0, f64::max).max(lo * 2.0) * 1.5;
    let caption = format!(
        "spawn + wait, median µs ({} preset; floor {})",
        m.preset.name(),
        m.perf.floor
    );
    panel(
        &top,
        m,
        &series,
        &caption,
        "median µs (log scale)",
        (lo..hi).log_scale(),
        |e| Some(e.median_us),
    )?;

    let near: Series = series
        .iter()
        .filter(|(_, _, es)| es.iter().all(|e| e.ratio_to_floor <= RATIO_CAP))
        .cloned()
        .collect();
    let ratios = near
        .iter()
        .flat_map(|(_, _, es)| es.iter().map(|e| e.ratio_to_floor));
    let r_hi = ratios.clone().fold(1.0, f64::max) * 1.05;
    let r_lo = ratios.fold(1.0, f64::min).min(1.0) * 0.95;
    let left_out = series.len() - near.len();
    let caption = format!(
        "ratio to the floor's median at the same size ({left_out} method(s) above {RATIO_CAP}× left out)"
    );
    panel(&bottom, m, &near, &caption, "× floor", r_lo..r_hi, |e| {
        Some(e.ratio_to_floor)
    })?;
    root.present()?;
    Ok(())
}

/// One panel: a line per method over the parent sizes, `value` giving its y.
fn panel<Y>(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    m: &Measurement,
    series: &Series,
    caption: &str,
    y_desc: &str,
    y_range: Y,
    value: impl Fn(&PerfEntry) -> Option<f64>,
) -> Result<(), Box<dyn std::error::Error>>
where
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let last = m.sizes.len().saturating_sub(1) as f64;
    let label = |x: &f64| -> String {
        let i = x.round();
        if (x - i).abs() > 1e-6 || i < 0.0 {
            return String::new();
        }
        m.sizes.get(i as usize).map_or(String::new(), |p| p.label())
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.4f64..last + 0.4, y_range)?;
    chart
        .configure_mesh()
        .x_labels(m.sizes.len().max(2) * 2 + 1)
        .x_label_formatter(&label)
        .y_label_formatter(&|v: &f64| micros(*v))
        .light_line_style(WHITE)
        .x_desc("parent size (touched memory unless a shape is named)")
        .y_desc(y_desc)
        .draw()?;
    for (i, name, entries) in series {
        let colour = COLOURS[i % COLOURS.len()];
        let points: Vec<(f64, f64)> = entries
            .iter()
            .filter_map(|e| {
                let x = m.sizes.iter().position(|p| p.measured(e))?;
                Some((x as f64, value(e)?))
            })
            .collect();
        line(&mut chart, name, points, colour)?;
    }
    legend(&mut chart)
}

/// A chart whose x axis is the index of a measured point (sizes, thread counts, …).
pub(in crate::bench) type IndexChart<'a, 'b, Y> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, Y>>;

/// One series: a line with a dot at each point, and its legend entry.
pub(in crate::bench) fn line<'a, Y: Ranged<ValueType = f64>>(
    chart: &mut IndexChart<'a, 'a, Y>,
    name: &str,
    points: Vec<(f64, f64)>,
    colour: RGBColor,
) -> Result<(), Box<dyn std::error::Error>> {
    chart
        .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
        .label(name)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
    chart.draw_series(
        points
            .into_iter()
            .map(|p| Circle::new(p, 3, colour.filled())),
    )?;
    Ok(())
}

/// The legend of every series, top left on a translucent white box.
pub(in crate::bench) fn legend<'a, Y: Ranged<ValueType = f64>>(
    chart: &mut IndexChart<'a, 'a, Y>,
) -> Result<(), Box<dyn std::error::Error>> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
