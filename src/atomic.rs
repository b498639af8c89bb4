//! Atomic file output: a write either replaces the whole file or leaves the old one.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same directory, then renames it
/// over `path`. A failure at any step leaves the previous contents in place.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".spawnmatrix-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes several files so that either all of them are replaced or none is: every file is
/// first written to a temporary sibling, and the renames happen only once all writes worked.
pub fn write_all(files: &[(&Path, &[u8])]) -> io::Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let mut tmp = tempfile::Builder::new()
            .prefix(".spawnmatrix-")
            .tempfile_in(dir)?;
        tmp.write_all(bytes)?;
        tmp.as_file().sync_all()?;
        staged.push((tmp, *path));
    }
    for (tmp, path) in staged {
        tmp.persist(path).map_err(|e| e.error)?;
    }
    Ok(())
}
