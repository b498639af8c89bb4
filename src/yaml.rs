//! The one place that names the YAML crate.
//!
//! `serde_yaml` is archived upstream; `serde_yaml_ng` is a maintained, serde-compatible fork.
//! Keeping it behind this module means a future switch touches one file.

use std::path::Path;

use serde::de::DeserializeOwned;

/// A YAML document that could not be read into the expected type, with the place it failed.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct YamlError {
    pub file: String,
    /// 1-based; 0 when the parser gave no position.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Parses `text` (read from `file`, used only for messages) into `T`.
pub fn from_str<T: DeserializeOwned>(file: &Path, text: &str) -> Result<T, YamlError> {
    serde_yaml_ng::from_str(text).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((0, 0));
        // The message repeats the position the `file:line:column:` prefix already gives.
        let message = e
            .to_string()
            .replacen(&format!(" at line {line} column {column}"), "", 1);
        YamlError {
            file: file.display().to_string(),
            line,
            column,
            message,
        }
    })
}

/// Serializes `value` as YAML text.
pub fn to_string<T: serde::Serialize>(value: &T) -> Result<String, YamlError> {
    serde_yaml_ng::to_string(value).map_err(|e| YamlError {
        file: String::from("<output>"),
        line: 0,
        column: 0,
        message: e.to_string(),
    })
}
