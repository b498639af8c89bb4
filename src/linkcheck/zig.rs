//! Finding zig and running `zig cc` for one target.
//!
//! zig is a cross C compiler that carries sysroots for many libcs and versions. It is found as
//! `$SPAWNMATRIX_ZIG` (a command line, split on spaces), else `zig` on PATH, else
//! `python3 -m ziglang` (the PyPI package `ziglang`, which ci/setup.sh installs into CI's venv;
//! `. ci/env.sh` puts that venv's python3 first on PATH, as .ci/run does).

use std::ffi::OsString;
use std::io;
use std::path::Path;
use std::process::{Command, Stdio};

use super::sysroot::Sysroot;

/// zig could not be found: every link column is skipped, and the message says why.
#[derive(Debug, thiserror::Error)]
#[error("zig not found (tried {tried}); install it with `bash ci/setup.sh pip` and put CI's venv on PATH with `. ci/env.sh`, or set SPAWNMATRIX_ZIG")]
pub struct ZigMissing {
    pub tried: String,
}

/// A way to run zig, with its version.
#[derive(Debug, Clone)]
pub struct Zig {
    command: Vec<OsString>,
    pub version: String,
    /// The release of the musl zig builds from source, from its own
    /// `lib/libc/musl/src/internal/version.h` (musl has no version macro in its headers).
    pub musl_version: Option<String>,
}

/// What one zig invocation did.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub success: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Zig {
    /// The first working zig among `$SPAWNMATRIX_ZIG`, `zig`, `python3 -m ziglang`, and the
    /// one `ci/setup.sh` installs into CI's virtual environment (so a plain `cargo test` finds
    /// it without `ci/env.sh` on `PATH`).
    pub fn find() -> Result<Zig, ZigMissing> {
        let mut candidates: Vec<Vec<OsString>> = Vec::new();
        if let Ok(cmd) = std::env::var("SPAWNMATRIX_ZIG") {
            candidates.push(cmd.split_whitespace().map(OsString::from).collect());
        }
        candidates.push(vec!["zig".into()]);
        candidates.push(vec!["python3".into(), "-m".into(), "ziglang".into()]);
        if let Some(venv) = ci_venv() {
            let python = venv.join("bin/python3").into_os_string();
            candidates.push(vec![python, "-m".into(), "ziglang".into()]);
        }
        let mut tried = Vec::new();
        for command in candidates.into_iter().filter(|c| !c.is_empty()) {
            tried.push(
                command
                    .iter()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            let out = Command::new(&command[0])
                .args(&command[1..])
                .arg("version")
                .stdin(Stdio::null())
                .output();
            if let Ok(out) = out {
                let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
                if out.status.success() && !version.is_empty() {
                    let musl_version = bundled_musl_version(&command);
                    return Ok(Zig {
                        command,
                        version,
                        musl_version,
                    });
                }
            }
        }
        Err(ZigMissing {
            tried: tried.join(", "),
        })
    }

    /// Compiles and links `source` into an executable for `sysroot` in `dir`. Only an
    /// executable is link evidence: a shared object links with symbols that no program could
    /// resolve (zig's FreeBSD 13 stubs link only that way), so there is no other mode.
    pub fn link(&self, sysroot: &Sysroot, source: &str, dir: &Path) -> io::Result<Outcome> {
        let src = dir.join("probe.c");
        std::fs::write(&src, source)?;
        let args = [
            src.into_os_string(),
            "-o".into(),
            dir.join("probe.out").into_os_string(),
        ];
        self.cc(sysroot, &args)
    }

    /// Runs the preprocessor only on `source`; stdout holds the result.
    pub fn preprocess(&self, sysroot: &Sysroot, source: &str, dir: &Path) -> io::Result<Outcome> {
        let src = dir.join("value.c");
        std::fs::write(&src, source)?;
        self.cc(sysroot, &["-E".into(), src.into_os_string()])
    }

    /// Runs `zig cc -target <sysroot>` (with the sysroot's flags) and `args`.
    pub fn cc(&self, sysroot: &Sysroot, args: &[OsString]) -> io::Result<Outcome> {
        let out = Command::new(&self.command[0])
            .args(&self.command[1..])
            .args(["cc", "-target", &sysroot.target])
            .args(sysroot.extra_flags())
            .args(args)
            .stdin(Stdio::null())
            .output()?;
        Ok(Outcome {
            success: out.status.success(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}

/// CI's virtual environment, where `ci/env.sh` says it is: `$SPAWNMATRIX_VENV`, else
/// `${XDG_CACHE_HOME:-$HOME/.cache}/spawnmatrix/venv`.
fn ci_venv() -> Option<std::path::PathBuf> {
    if let Some(v) = std::env::var_os("SPAWNMATRIX_VENV") {
        return Some(v.into());
    }
    let cache = match std::env::var_os("XDG_CACHE_HOME") {
        Some(c) => std::path::PathBuf::from(c),
        None => std::path::PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
    };
    Some(cache.join("spawnmatrix/venv"))
}

/// The musl release zig bundles: `zig env` names its `lib_dir`, whose
/// `libc/musl/src/internal/version.h` is musl's own `#define VERSION "1.2.5"` (the file
/// musl's build generates from its VERSION, which zig ships with the sources).
fn bundled_musl_version(command: &[OsString]) -> Option<String> {
    let out = Command::new(&command[0])
        .args(&command[1..])
        .arg("env")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let lib_dir = lib_dir_of(&String::from_utf8_lossy(&out.stdout))?;
    let header = Path::new(&lib_dir).join("libc/musl/src/internal/version.h");
    version_define(&std::fs::read_to_string(header).ok()?)
}

/// `lib_dir` from `zig env` output: ZON (`.lib_dir = "…",`, zig 0.14 on) or JSON
/// (`"lib_dir": "…",`, before).
fn lib_dir_of(env: &str) -> Option<String> {
    env.lines().find_map(|l| {
        let rest = l
            .trim()
            .strip_prefix(".lib_dir")
            .or_else(|| l.trim().strip_prefix("\"lib_dir\""))?;
        let value = rest.trim_start_matches([' ', '=', ':']);
        Some(value.trim_end_matches(',').trim_matches('"').to_string())
    })
}

/// The string of `#define VERSION "…"`.
fn version_define(header: &str) -> Option<String> {
    header.lines().find_map(|l| {
        let v = l.trim().strip_prefix("#define VERSION")?.trim();
        Some(v.strip_prefix('"')?.strip_suffix('"')?.to_string())
    })
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    #[rstest]
    #[case(
        ".{\n    .zig_exe = \"/z/zig\",\n    .lib_dir = \"/z/lib\",\n",
        Some("/z/lib")
    )]
    #[case(
        "{\n \"zig_exe\": \"/z/zig\",\n \"lib_dir\": \"/z/lib\",\n",
        Some("/z/lib")
    )]
    #[case(".{ .zig_exe = \"/z/zig\" }", None)]
    fn lib_dir_from_zig_env(#[case] env: &str, #[case] want: Option<&str>) {
        assert_eq!(super::lib_dir_of(env).as_deref(), want);
    }

    #[rstest]
    #[case("#define VERSION \"1.2.5\"\n", Some("1.2.5"))]
    #[case("/* x */\n#define VERSION \"1.1.24\"\n", Some("1.1.24"))]
    #[case("#define VERSION_X 3\n", None)]
    #[case("", None)]
    fn musl_version_from_its_header(#[case] text: &str, #[case] want: Option<&str>) {
        assert_eq!(super::version_define(text).as_deref(), want);
    }
}
