//! `index.html`: one static page with inline CSS and JS and the matrix embedded as JSON.
//! It loads nothing from the network; the summary (the default view), the full table by
//! release, filtering, column order and cell details run in the page, whose state is the URL.

use std::collections::HashMap;

use serde_json::{json, Value as Json};

use crate::matrix::model::{Column, Matrix};
use crate::matrix::summary::{self, Summary};

/// The page; each placeholder is replaced by its data.
const PAGE: &str = include_str!("page.html");
const PLACEHOLDER: &str = "/*MATRIX_JSON*/null";
const SUMMARY_PLACEHOLDER: &str = "/*SUMMARY_JSON*/null";
const RELEASES_PLACEHOLDER: &str = "/*RELEASES_JSON*/null";
const BASELINES_PLACEHOLDER: &str = "/*BASELINES_JSON*/null";
const SECTIONS_PLACEHOLDER: &str = "/*SECTIONS_JSON*/null";

/// JSON that is safe inside a `<script>` element: `</` and `<!--` cannot occur.
fn embeddable(json: String) -> String {
    json.replace("</", "<\\/").replace("<!--", "<\\u0021--")
}

/// The full table's cells, one column per release: for every matrix row, the merged cell of
/// each release of the summary's families (in their order), merged by [`summary::step`], the
/// rule the summary itself reads a release by. A cell is `[value, [evidence...]]`, with a third
/// element `true` when its evidence disagrees; `null` where the release has no cell.
fn release_cells(matrix: &Matrix, summary: &Summary) -> String {
    let by_key: HashMap<&str, &Column> =
        matrix.columns.iter().map(|c| (c.key.as_str(), c)).collect();
    let releases: Vec<_> = summary.families.iter().flat_map(|f| &f.releases).collect();
    let rows: serde_json::Map<String, Json> = matrix
        .rows
        .iter()
        .map(|row| {
            let cells: Vec<Json> = releases
                .iter()
                .map(|release| {
                    let cells: Vec<_> = release
                        .columns
                        .iter()
                        .filter_map(|k| Some((*by_key.get(k.as_str())?, row.cells.get(k)?)))
                        .collect();
                    match summary::step(&release.release, &cells) {
                        None => Json::Null,
                        Some(s) if s.disagreement => json!([s.value, s.evidence, true]),
                        Some(s) => json!([s.value, s.evidence]),
                    }
                })
                .collect();
            (row.id.clone(), Json::Array(cells))
        })
        .collect();
    // One row per line, like the published summary JSON.
    let lines: Vec<String> = rows
        .iter()
        .map(|(id, cells)| format!("{}: {}", Json::from(id.as_str()), cells))
        .collect();
    format!("{{\n{}\n}}", lines.join(",\n"))
}

/// The page with the matrix, its summary (the default view) and the by-release cells embedded.
pub fn render(matrix: &Matrix) -> String {
    render_with_baselines(matrix, None)
}

/// [`render`], plus the baseline view (the JSON of `published::baseline_view::BaselineView`,
/// computed by the caller from the same matrix) as a view of its own.
pub fn render_with_baselines(matrix: &Matrix, baselines: Option<&str>) -> String {
    render_with_views(matrix, baselines, None)
}

/// [`render_with_baselines`], plus the published sections that are families of their own
/// (`{"families": [...], "sections": [...]}` as `published::page_sections` computes them: the
/// Linux kernel, the sandbox profiles) as the page's "Kernel & sandboxes" view.
pub fn render_with_views(
    matrix: &Matrix,
    baselines: Option<&str>,
    sections: Option<&str>,
) -> String {
    let summary = summary::build(matrix);
    PAGE.replacen(PLACEHOLDER, &embeddable(super::json::render(matrix)), 1)
        .replacen(
            SUMMARY_PLACEHOLDER,
            &embeddable(super::summary::json(&summary)),
            1,
        )
        .replacen(
            RELEASES_PLACEHOLDER,
            &embeddable(release_cells(matrix, &summary)),
            1,
        )
        .replacen(
            BASELINES_PLACEHOLDER,
            &embeddable(baselines.unwrap_or("null").to_string()),
            1,
        )
        .replacen(
            SECTIONS_PLACEHOLDER,
            &embeddable(sections.unwrap_or("null").to_string()),
            1,
        )
}
