//! What the tests that run the `spawnmatrix` binary share (`tests/cli.rs`, `tests/matrix_cli.rs`).
// Each test binary uses only some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The executable, run in the repository (so the working tree's cases and targets are found).
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spawnmatrix"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    for var in ["SPAWNMATRIX_CASES", "SPAWNMATRIX_TARGETS"] {
        cmd.env_remove(var);
    }
    cmd
}

/// Runs `cmd`, echoing its output for a failing test's log.
pub fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    eprintln!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// A minimal report of `os` (`linux`, `macos`) with one capability and one case.
pub fn report(os: &str, libc_version: &str, addchdir: bool, outcome: &str) -> String {
    let libc = if os == "linux" { "glibc" } else { "libSystem" };
    format!(
        r#"{{"schema_version":1,"suite_version":"0.1.0","generated_at":"2026-11-30T07:00:00Z",
 "platform":{{"os":"{os}","arch":"x86_64","target":"x86_64-unknown-linux-gnu",
   "libc":{{"name":"{libc}","version":"{libc_version}"}},"provenance":{{"kind":"native"}}}},
 "capabilities":{{"posix_spawn_file_actions_addchdir_np":{{"available":{addchdir},"how":"dlsym"}}}},
 "cases":{{"exec-enoent":{{"libc":{{"outcome":"{outcome}","verdict":"pass"}}}}}}}}"#
    )
}

/// A copy of the folder `from` (files and subfolders) at `to`, for a test that changes it.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        match entry.file_type().unwrap().is_dir() {
            true => copy_dir(&entry.path(), &target),
            false => {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }
}
