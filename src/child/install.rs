//! Puts the embedded helper programs on disk once, so they can be executed.
//!
//! Each program is written (atomically, mode 0755) to
//! `<cache>/spawnmatrix/<name>-<content hash>/<name>`; an existing file there is reused, so
//! concurrent test processes share one copy and a rebuilt helper never reuses a stale one.
//! `<cache>` is `$XDG_CACHE_HOME`, else `$HOME/.cache`; if that cannot be written (or neither
//! is set), a private per-user folder in the temporary directory.
//!
//! Known limit: while the very first install of a program is being written, a child forked
//! by another thread holds the write fd until its exec; an exec of the new file in that
//! window fails with ETXTBSY. Later runs find the file in place and write nothing.

use std::ffi::OsString;
use std::fs::{self, DirBuilder};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One program embedded by the build script.
pub(super) struct Program {
    pub(super) name: &'static str,
    pub(super) bytes: &'static [u8],
    /// FNV-1a of `bytes`, hex.
    pub(super) hash: &'static str,
}

mod embedded {
    use super::Program;
    include!(concat!(env!("OUT_DIR"), "/child_programs.rs"));
}

/// The path of an executable `spawnmatrix-child`. `$SPAWNMATRIX_CHILD` overrides the
/// embedded copy (for targets built elsewhere, or to test another helper).
pub fn helper_path() -> io::Result<PathBuf> {
    static CACHE: OnceLock<Result<PathBuf, (io::ErrorKind, String)>> = OnceLock::new();
    resolve("SPAWNMATRIX_CHILD", &embedded::CHILD, &CACHE)
}

/// The path of `spawnmatrix-true`, a static program that only `_exit(0)`s (the cheapest
/// possible exec target, for benchmarks). `$SPAWNMATRIX_TRUE` overrides it.
pub fn true_path() -> io::Result<PathBuf> {
    static CACHE: OnceLock<Result<PathBuf, (io::ErrorKind, String)>> = OnceLock::new();
    resolve("SPAWNMATRIX_TRUE", &embedded::TRUE, &CACHE)
}

fn resolve(
    override_var: &str,
    program: &Result<Program, &'static str>,
    cache: &OnceLock<Result<PathBuf, (io::ErrorKind, String)>>,
) -> io::Result<PathBuf> {
    if let Some(path) = std::env::var_os(override_var).filter(|p| !p.is_empty()) {
        return checked_override(override_var, PathBuf::from(path));
    }
    let program = program
        .as_ref()
        .map_err(|why| io::Error::new(io::ErrorKind::Unsupported, *why))?;
    cache
        .get_or_init(|| install(program).map_err(|e| (e.kind(), e.to_string())))
        .clone()
        .map_err(|(kind, msg)| io::Error::new(kind, msg))
}

fn checked_override(var: &str, path: PathBuf) -> io::Result<PathBuf> {
    let meta = fs::metadata(&path)
        .map_err(|e| io::Error::new(e.kind(), format!("${var} = {}: {e}", path.display())))?;
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("${var} = {}: not an executable file", path.display()),
        ));
    }
    Ok(path)
}

/// Writes `program` to its cache path unless an identical copy is already there. A cache
/// root that cannot be written (a read-only home in a container) falls back to the private
/// temporary one; the error names every place tried.
fn install(program: &Program) -> io::Result<PathBuf> {
    let mut failures = Vec::new();
    for root in cache_roots() {
        match root.and_then(|root| install_in(&root, program)) {
            Ok(path) => return Ok(path),
            Err(e) => failures.push(e.to_string()),
        }
    }
    Err(io::Error::other(format!(
        "cannot install {}: {}",
        program.name,
        failures.join("; ")
    )))
}

fn install_in(root: &Path, program: &Program) -> io::Result<PathBuf> {
    let dir = root
        .join("spawnmatrix")
        .join(format!("{}-{}", program.name, program.hash));
    let path = dir.join(program.name);
    if let Ok(meta) = fs::metadata(&path) {
        if meta.is_file() && meta.len() == program.bytes.len() as u64 {
            return Ok(path);
        }
    }
    DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(&dir)
        .map_err(|e| with_path(e, "creating", &dir))?;
    crate::atomic::write_with_mode(&path, program.bytes, 0o755)
        .map_err(|e| with_path(e, "writing", &path))?;
    Ok(path)
}

/// `$XDG_CACHE_HOME` or `$HOME/.cache` when set, then `<tmp>/spawnmatrix-<uid>`.
fn cache_roots() -> Vec<io::Result<PathBuf>> {
    let non_empty = |v: Option<OsString>| v.filter(|v| !v.is_empty()).map(PathBuf::from);
    let user = non_empty(std::env::var_os("XDG_CACHE_HOME"))
        .or_else(|| non_empty(std::env::var_os("HOME")).map(|home| home.join(".cache")));
    user.map(Ok)
        .into_iter()
        .chain([private_temp_dir()])
        .collect()
}

/// `<tmp>/spawnmatrix-<uid>`, created 0700 and checked to be ours, since others can write to
/// the temporary directory.
fn private_temp_dir() -> io::Result<PathBuf> {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let dir = std::env::temp_dir().join(format!("spawnmatrix-{uid}"));
    match DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(with_path(e, "creating", &dir)),
    }
    let meta = fs::symlink_metadata(&dir).map_err(|e| with_path(e, "checking", &dir))?;
    if !meta.is_dir() || meta.uid() != uid || meta.mode() & 0o022 != 0 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{}: not a private directory of uid {uid}", dir.display()),
        ));
    }
    Ok(dir)
}

fn with_path(e: io::Error, doing: &str, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{doing} {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::{install_in, Program};

    const PROGRAM: Program = Program {
        name: "prog",
        bytes: b"#!/bin/sh\nexit 3\n",
        hash: "0123",
    };

    #[test]
    fn installs_once_executable_under_its_hash() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let path = install_in(root.path(), &PROGRAM).unwrap();
        assert_eq!(path, root.path().join("spawnmatrix/prog-0123/prog"));
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
        // Not executed here: other test threads forking meanwhile could hold the write fd
        // (the ETXTBSY window above); tests/child_helper.rs executes the real programs.
        assert_eq!(std::fs::read(&path).unwrap(), PROGRAM.bytes);
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        assert_eq!(install_in(root.path(), &PROGRAM).unwrap(), path);
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            modified
        );
    }

    #[test]
    fn an_unwritable_root_is_an_error_naming_it() {
        let err = install_in(std::path::Path::new("/proc/spawnmatrix-no"), &PROGRAM).unwrap_err();
        assert!(err.to_string().contains("/proc/spawnmatrix-no"), "{err}");
    }
}
