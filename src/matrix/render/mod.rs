//! The three outputs of a matrix, and writing them (plus extra files) as one atomic set.

use std::path::Path;

use super::error::MatrixError;
use super::model::Matrix;

pub mod html;
pub mod json;
pub mod markdown;
pub mod summary;

/// The rendered outputs, in memory, ready to be written together.
pub struct Outputs {
    pub json: String,
    pub markdown: String,
    pub html: String,
}

impl Outputs {
    pub fn render(matrix: &Matrix) -> Outputs {
        Outputs::render_with_baselines(matrix, None)
    }

    /// The outputs with the page's baseline view (its JSON, made by the caller).
    pub fn render_with_baselines(matrix: &Matrix, baselines: Option<&str>) -> Outputs {
        Outputs::render_with_views(matrix, baselines, None)
    }

    /// The outputs with the page's baseline view and its kernel and sandbox sections (both
    /// JSON, made by the caller; see [`html::render_with_views`]).
    pub fn render_with_views(
        matrix: &Matrix,
        baselines: Option<&str>,
        sections: Option<&str>,
    ) -> Outputs {
        Outputs {
            json: json::render(matrix),
            markdown: markdown::render(matrix),
            html: html::render_with_views(matrix, baselines, sections),
        }
    }

    /// Writes matrix.json, MATRIX.md, index.html and `extra` (name, bytes) into `dir`, all
    /// or none: a failure leaves the previous outputs in place.
    pub fn write(&self, dir: &Path, extra: &[(&str, &[u8])]) -> Result<(), MatrixError> {
        let wrap = |source| MatrixError::Write {
            dir: dir.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(wrap)?;
        let mut files: Vec<(std::path::PathBuf, &[u8])> = vec![
            (dir.join("matrix.json"), self.json.as_bytes()),
            (dir.join("MATRIX.md"), self.markdown.as_bytes()),
            (dir.join("index.html"), self.html.as_bytes()),
        ];
        files.extend(extra.iter().map(|(name, bytes)| (dir.join(name), *bytes)));
        let refs: Vec<(&Path, &[u8])> = files.iter().map(|(p, b)| (p.as_path(), *b)).collect();
        crate::atomic::write_all(&refs).map_err(wrap)
    }
}
