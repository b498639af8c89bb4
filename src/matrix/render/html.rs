//! `index.html`: one static page with inline CSS and JS and the matrix embedded as JSON.
//! It loads nothing from the network; filtering, column order and cell details run in the page.

use crate::matrix::model::Matrix;

/// The page; `/*MATRIX_JSON*/null` is replaced by the data.
const PAGE: &str = include_str!("page.html");
const PLACEHOLDER: &str = "/*MATRIX_JSON*/null";

/// The matrix as JSON that is safe inside a `<script>` element: `</` and `<!--` cannot occur.
fn embedded_json(matrix: &Matrix) -> String {
    super::json::render(matrix)
        .replace("</", "<\\/")
        .replace("<!--", "<\\u0021--")
}

pub fn render(matrix: &Matrix) -> String {
    PAGE.replacen(PLACEHOLDER, &embedded_json(matrix), 1)
}
