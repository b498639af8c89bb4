//! Atomic file output: a write either replaces the whole file or leaves the old one.

use std::fs::Permissions;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use tempfile::NamedTempFile;

/// Writes `bytes` to `path` through a temporary file in the same directory, then renames it
/// over `path`. A failure at any step leaves the previous contents in place.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    stage(path, bytes, None)?
        .persist(path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// Like [`write`], but the file has Unix permission bits `mode` before it appears, so nobody
/// sees it with other permissions (an executable is never seen unexecutable).
pub fn write_with_mode(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    stage(path, bytes, Some(mode))?
        .persist(path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// Writes several files so that either all of them are replaced or none is: every file is
/// first written to a temporary sibling, and the renames happen only once all writes worked.
pub fn write_all(files: &[(&Path, &[u8])]) -> io::Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        staged.push((stage(path, bytes, None)?, *path));
    }
    for (tmp, path) in staged {
        tmp.persist(path).map_err(|e| e.error)?;
    }
    Ok(())
}

/// A synced temporary sibling of `path` holding `bytes`, ready to be renamed over it.
fn stage(path: &Path, bytes: &[u8], mode: Option<u32>) -> io::Result<NamedTempFile> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".spawnmatrix-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if let Some(mode) = mode {
        // fchmod, so the umask does not apply.
        tmp.as_file()
            .set_permissions(Permissions::from_mode(mode))?;
    }
    tmp.as_file().sync_all()?;
    Ok(tmp)
}
