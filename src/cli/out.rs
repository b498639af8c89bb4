//! The `--out DIR` convention of every command: a folder, created when missing, that receives
//! files of fixed names, each written atomically. (`--json` is always a switch: JSON on
//! stdout.)

use std::path::{Path, PathBuf};

use spawnmatrix::matrix::MatrixError;

/// Writes `bytes` to `dir/name` and returns that path; errors name the folder or the file.
pub fn write_into(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, MatrixError> {
    std::fs::create_dir_all(dir).map_err(|source| MatrixError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let path = dir.join(name);
    spawnmatrix::atomic::write(&path, bytes).map_err(|source| MatrixError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}
