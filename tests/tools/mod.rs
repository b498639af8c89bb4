//! The host's tools that some tests need (zig, a C compiler, git, a mounted `/proc`): found
//! here, or the test skips and says why. The reason goes straight to stderr, past libtest's
//! capture, so the log of a bare runner (no zig, no compiler, no git; `ci/bare-root.sh`)
//! names every skip; where the tool is, the test runs.

#![allow(dead_code)] // Each test file uses its own subset.

use std::ffi::OsString;
use std::io::Write;
use std::process::{Command, Stdio};

use spawnmatrix::linkcheck::Zig;

/// Prints `skipped: <test>: <why>` on stderr, uncaptured.
pub fn skip(why: &str) {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("?");
    let _ = writeln!(std::io::stderr(), "skipped: {name}: {why}");
}

/// zig (see [`Zig::find`]), or `None` after printing why not.
pub fn zig() -> Option<Zig> {
    Zig::find().map_err(|e| skip(&e.to_string())).ok()
}

/// Whether `program --version` runs and succeeds.
fn answers(program: &OsString) -> bool {
    Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The C compiler: `$CC`, else the first of `cc`, `gcc`, `clang` that answers; `None`
/// after printing why not.
pub fn c_compiler() -> Option<OsString> {
    let candidates: Vec<OsString> = match std::env::var_os("CC") {
        Some(cc) => vec![cc],
        None => ["cc", "gcc", "clang"].map(OsString::from).to_vec(),
    };
    let found = candidates.iter().find(|c| answers(c)).cloned();
    if found.is_none() {
        skip(&format!("no C compiler (tried {candidates:?})"));
    }
    found
}
