//! Atomic file output: a write either replaces the whole file or leaves the old one.

use std::fs::Permissions;
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

use tempfile::{NamedTempFile, TempPath};

/// Writes `bytes` to `path` through a temporary file in the same directory, then renames it
/// over `path`. A failure at any step leaves the previous contents in place.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    stage(path, bytes, None)?
        .persist(path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// Like [`write`](fn@write), but the file has Unix permission bits `mode` before it appears, so nobody
/// sees it with other permissions (an executable is never seen unexecutable).
pub fn write_with_mode(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    write_with_mode_checked(path, bytes, mode, |_| Ok(()))
}

/// Like [`write_with_mode`], but `check` first runs on the staged file, closed, at its
/// temporary path; an error from it leaves `path` as it was. (The installer of executables
/// waits there until the new file can be executed.)
pub fn write_with_mode_checked(
    path: &Path,
    bytes: &[u8],
    mode: u32,
    check: impl FnOnce(&Path) -> io::Result<()>,
) -> io::Result<()> {
    let staged = stage(path, bytes, Some(mode))?.into_temp_path();
    check(&staged)?;
    staged.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes several files so that either all of them are replaced or none is: every file is
/// first written to a temporary sibling, each existing target is kept under a temporary
/// hard link, and only then are the files renamed into place. When a rename fails, the ones
/// already done are undone from the kept links.
pub fn write_all(files: &[(&Path, &[u8])]) -> io::Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        staged.push((stage(path, bytes, None)?, *path, keep_old(path)?));
    }
    let mut done: Vec<(&Path, Option<TempPath>)> = Vec::with_capacity(staged.len());
    for (tmp, path, old) in staged {
        if let Err(e) = tmp.persist(path) {
            for (path, old) in done.into_iter().rev() {
                // Best effort: the error below is what the caller needs to see.
                let _ = match old {
                    Some(old) => old.persist(path).map_err(|e| e.error),
                    None => std::fs::remove_file(path),
                };
            }
            return Err(e.error);
        }
        done.push((path, old));
    }
    Ok(())
}

/// A temporary hard link to (or, where links fail, copy of) the current `path`; none when it
/// does not exist yet. Removed on drop unless it is renamed back. A directory in the way is
/// an error here, before anything was renamed.
fn keep_old(path: &Path) -> io::Result<Option<TempPath>> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(None);
    };
    if meta.is_dir() {
        return Err(io::Error::from_raw_os_error(libc::EISDIR));
    }
    let mut keep = tempfile::Builder::new();
    keep.prefix(".spawnmatrix-old-");
    let link = keep
        .make_in(parent(path), |tmp| std::fs::hard_link(path, tmp))
        .or_else(|_| keep.make_in(parent(path), |tmp| std::fs::copy(path, tmp).map(drop)))?;
    Ok(Some(link.into_temp_path()))
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The mode an output gets when the caller names none: the replaced file's, so a rewrite
/// keeps its permissions, else 0644 like an ordinary new file. (The temporary file starts
/// as 0600, which would make outputs unreadable to others.)
fn default_mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o7777)
        .unwrap_or(0o644)
}

/// A synced temporary sibling of `path` holding `bytes`, ready to be renamed over it.
///
/// Built with `make_in` and written through the `File`: tempfile's own constructors and its
/// `Write` on `NamedTempFile` add the temporary name to an error (`at path ".spawnmatrix-…"`),
/// a name the caller's message must not show (the caller names `path`).
fn stage(path: &Path, bytes: &[u8], mode: Option<u32>) -> io::Result<NamedTempFile> {
    let tmp = tempfile::Builder::new()
        .prefix(".spawnmatrix-")
        .make_in(parent(path), |p| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(p)
        })?;
    let mut file = tmp.as_file();
    file.write_all(bytes)?;
    let mode = mode.unwrap_or_else(|| default_mode(path));
    // fchmod, so the umask does not apply.
    file.set_permissions(Permissions::from_mode(mode))?;
    file.sync_all()?;
    Ok(tmp)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use rstest::rstest;

    /// A new output is 0644; a rewritten one keeps the mode it had.
    #[rstest]
    #[case(None, 0o644)]
    #[case(Some(0o600), 0o600)]
    #[case(Some(0o664), 0o664)]
    fn outputs_get_an_ordinary_mode(#[case] existing: Option<u32>, #[case] expected: u32) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        if let Some(mode) = existing {
            std::fs::write(&path, b"old").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        super::write(&path, b"new").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, expected);
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }

    /// A failed write reports the OS error as it is: no temporary name in its text (the
    /// caller names the output), and the errno kept.
    #[rstest]
    #[case::write(|p: &std::path::Path| crate::atomic::write(p, b"x"))]
    #[case::with_mode(|p: &std::path::Path| crate::atomic::write_with_mode(p, b"x", 0o755))]
    #[case::all(|p: &std::path::Path| crate::atomic::write_all(&[(p, b"x".as_slice())]))]
    fn errors_name_no_temporary_file(#[case] write: fn(&std::path::Path) -> std::io::Result<()>) {
        let dir = tempfile::tempdir().unwrap();
        let not_a_dir = dir.path().join("file");
        std::fs::write(&not_a_dir, b"").unwrap();
        let err = write(&not_a_dir.join("out.json")).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOTDIR), "{err}");
        assert!(!err.to_string().contains(".spawnmatrix-"), "{err}");
    }
}
