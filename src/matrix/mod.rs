//! The capability matrix: reports from many platforms and documented claims merged into one
//! table whose every cell says how it is known (`run`, `link` or `doc`).
//!
//! - [`load`]: reading reports and matrices (typed errors naming file and line).
//! - [`docs`]: `targets/<family>/platform.yaml`, documented claims with sources.
//! - [`citation`]: the checkable form every source takes (a URL or repo@commit:path:line).
//! - [`merge`](mod@merge): evidence precedence and disagreement flagging.
//! - [`cases`]: case areas and titles from the case files, for grouping.
//! - [`render`]: `matrix.json`, `MATRIX.md`, `index.html`.
//! - [`summary`]: feature × family → since which release (the default view).
//! - [`query`]: summary rows from what a user types (`addchdir_np`).
//! - [`diff`]: what changed between two matrices or reports, regressions first.

pub mod boundary;
pub mod cases;
pub mod citation;
pub mod consistency;
pub mod diff;
pub mod docs;
pub mod error;
pub mod history;
pub mod load;
pub mod merge;
pub mod model;
pub mod query;
pub mod render;
pub mod rows;
pub mod summary;
pub mod version;

pub use error::MatrixError;
pub use merge::{merge, merge_with};
pub use model::{Cell, Column, Evidence, Matrix, Row, Value};

#[cfg(test)]
mod tests;
