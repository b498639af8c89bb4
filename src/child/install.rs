//! Puts the embedded helper programs on disk once, so they can be executed.
//!
//! Each program is written (atomically, mode 0755) to
//! `<cache>/spawnmatrix/<name>-<content hash>/<name>`; an existing file there is reused, so
//! concurrent test processes share one copy and a rebuilt helper never reuses a stale one.
//! `<cache>` is `$XDG_CACHE_HOME`, else `$HOME/.cache`; if that cannot be written (or neither
//! is set), a private per-user folder in the temporary directory.
//!
//! A child that another thread forks while the new file is open for writing inherits the
//! write fd until it execs, and meanwhile an exec of the file fails with ETXTBSY. So the file
//! is renamed into place only once it has been executed successfully: whoever finds it there,
//! in this process or another, can run it.

use std::ffi::OsString;
use std::fs::{self, DirBuilder};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

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
    crate::atomic::write_with_mode_checked(&path, program.bytes, 0o755, wait_executable)
        .map_err(|e| with_path(e, "writing", &path))?;
    Ok(path)
}

/// How long an install waits for other threads' children to exec and drop the write fd.
const EXEC_WAIT: Duration = Duration::from_secs(10);

/// Runs the program at `path` (no arguments, no input, output discarded; its exit status
/// does not matter) until the exec succeeds, retrying while it fails with ETXTBSY.
fn wait_executable(path: &Path) -> io::Result<()> {
    let deadline = Instant::now() + EXEC_WAIT;
    let mut pause = Duration::from_millis(1);
    loop {
        let run = std::process::Command::new(path)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        match run {
            Ok(_) => return Ok(()),
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(e) => return Err(io::Error::new(e.kind(), format!("running it once: {e}"))),
        }
    }
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
        assert_eq!(std::fs::read(&path).unwrap(), PROGRAM.bytes);
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        assert_eq!(install_in(root.path(), &PROGRAM).unwrap(), path);
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            modified
        );
    }

    /// Other threads fork and exec all the time; a freshly installed program still runs at
    /// once. (Renaming before the first successful exec gave ETXTBSY here.)
    #[test]
    fn a_new_install_runs_at_once_while_other_threads_fork() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    while !stop.load(Ordering::Relaxed) {
                        let _ = std::process::Command::new("true").status();
                    }
                });
            }
            let outcome = (0..20).try_for_each(|_| {
                let root = tempfile::tempdir()?;
                let path = install_in(root.path(), &PROGRAM)?;
                let status = std::process::Command::new(&path).status()?;
                assert_eq!(status.code(), Some(3));
                Ok::<(), std::io::Error>(())
            });
            stop.store(true, Ordering::Relaxed);
            outcome.unwrap();
        });
    }

    #[test]
    fn an_unwritable_root_is_an_error_naming_it() {
        // Under a regular file: no directory can be made there on any platform, even as
        // root (FreeBSD's empty /proc would take one).
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("file").join("spawnmatrix-no");
        std::fs::write(dir.path().join("file"), b"").unwrap();
        let err = install_in(&root, &PROGRAM).unwrap_err();
        assert!(err.to_string().contains(&*root.to_string_lossy()), "{err}");
    }
}
