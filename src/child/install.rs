//! Puts the embedded helper programs on disk once, so they can be executed.
//!
//! Each program is written (atomically, mode 0755) to
//! `<cache>/spawnmatrix/<name>-<content hash>/<name>`; an existing file there is reused, so
//! concurrent test processes share one copy and a rebuilt helper never reuses a stale one.
//! `<cache>` is `$XDG_CACHE_HOME`, else `$HOME/.cache`, else a per-user folder in the
//! temporary directory.
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

/// Writes `program` to its cache path unless an identical copy is already there.
fn install(program: &Program) -> io::Result<PathBuf> {
    let dir = cache_root()?
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

/// `$XDG_CACHE_HOME`, `$HOME/.cache`, or `<tmp>/spawnmatrix-<uid>` (created 0700 and
/// checked to be ours, since others can write to the temporary directory).
fn cache_root() -> io::Result<PathBuf> {
    let non_empty = |v: Option<OsString>| v.filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = non_empty(std::env::var_os("XDG_CACHE_HOME")) {
        return Ok(dir);
    }
    if let Some(home) = non_empty(std::env::var_os("HOME")) {
        return Ok(home.join(".cache"));
    }
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
