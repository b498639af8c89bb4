//! `index.html`: one static page with inline CSS and JS and the matrix embedded as JSON.
//! It loads nothing from the network; filtering, column order and cell details run in the page.

use crate::matrix::model::Matrix;

/// The page; `/*MATRIX_JSON*/null` is replaced by the data.
const PAGE: &str = include_str!("page.html");
const PLACEHOLDER: &str = "/*MATRIX_JSON*/null";
const SUMMARY_PLACEHOLDER: &str = "/*SUMMARY_JSON*/null";

/// JSON that is safe inside a `<script>` element: `</` and `<!--` cannot occur.
fn embeddable(json: String) -> String {
    json.replace("</", "<\\/").replace("<!--", "<\\u0021--")
}

/// The page with the matrix and its summary (the default view) embedded.
pub fn render(matrix: &Matrix) -> String {
    let summary = crate::matrix::summary::build(matrix);
    PAGE.replacen(PLACEHOLDER, &embeddable(super::json::render(matrix)), 1)
        .replacen(
            SUMMARY_PLACEHOLDER,
            &embeddable(super::summary::json(&summary)),
            1,
        )
}
