//! `matrix.json`: the model as is, pretty-printed so that diffs of stored matrices read well.

use crate::matrix::model::Matrix;

pub fn render(matrix: &Matrix) -> String {
    // A Matrix holds only strings, numbers, bools, maps with string keys and vectors: it
    // always serializes.
    let mut text = serde_json::to_string_pretty(matrix).unwrap_or_default();
    text.push('\n');
    text
}
