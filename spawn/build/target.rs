//! What the build is for and whether its programs can run on the build machine.

use std::env;
use std::path::PathBuf;
use std::process::Command;

/// The target as Cargo describes it to build scripts.
pub struct Target {
    /// `x86_64-unknown-linux-musl`, ...
    pub triple: String,
    /// `CARGO_CFG_TARGET_OS`: `linux`, `macos`, `freebsd`, `cygwin`, ...
    pub os: String,
    /// `CARGO_CFG_TARGET_ENV`: `gnu`, `musl`, or empty.
    pub env: String,
    pub arch: String,
    pub host: String,
    /// `CARGO_CFG_TARGET_FEATURE`, comma-separated.
    pub features: String,
    pub out_dir: PathBuf,
}

fn var(name: &str) -> String {
    env::var(name).unwrap_or_default()
}

impl Target {
    pub fn from_env() -> Target {
        Target {
            triple: var("TARGET"),
            os: var("CARGO_CFG_TARGET_OS"),
            env: var("CARGO_CFG_TARGET_ENV"),
            arch: var("CARGO_CFG_TARGET_ARCH"),
            host: var("HOST"),
            features: var("CARGO_CFG_TARGET_FEATURE"),
            out_dir: PathBuf::from(var("OUT_DIR")),
        }
    }

    /// Whether the crate links statically (`crt-static`): then `dlsym` finds nothing.
    ///
    /// Asked of `rustc --print cfg` with the crate's RUSTFLAGS, because Cargo leaves a
    /// target's default `crt-static` (musl) out of `CARGO_CFG_TARGET_FEATURE`.
    pub fn crt_static(&self) -> bool {
        if self.features.split(',').any(|f| f == "crt-static") {
            return true;
        }
        let out = Command::new(rustc())
            .args(["--print", "cfg", "--target", &self.triple])
            .args(encoded_rustflags())
            .output();
        match out {
            Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
                .lines()
                .any(|l| l == "target_feature=\"crt-static\""),
            _ => false,
        }
    }

    /// Whether a program built for the target runs on the build machine: same CPU (or i686 on
    /// an x86_64 Linux, whose kernels run 32-bit programs) and same kernel family (a glibc
    /// host runs static musl programs too).
    pub fn runs_on_host(&self) -> bool {
        let host_arch = self.host.split('-').next().unwrap_or_default();
        let cpu = host_arch == self.arch || (host_arch == "x86_64" && self.arch == "x86");
        cpu && host_os(&self.host) == Some(self.os.as_str())
    }

    /// Whether C programs can be built for the target: natively, or with a cross compiler
    /// named for it (`CC_<target>` as the `cc` crate reads it, or `TARGET_CC`; e.g. a
    /// `zig cc -target aarch64-linux-musl` wrapper, as `ci/emulate.sh` sets). A cross
    /// `cargo check` with none gets no C programs rather than host-architecture ones.
    pub fn builds_c(&self) -> bool {
        let underscored = self.triple.replace('-', "_");
        let names = [
            format!("CC_{}", self.triple),
            format!("CC_{underscored}"),
            "TARGET_CC".to_string(),
        ];
        for name in &names {
            println!("cargo:rerun-if-env-changed={name}");
        }
        self.runs_on_host()
            || names
                .iter()
                .any(|n| env::var_os(n).is_some_and(|v| !v.is_empty()))
    }
}

/// The `target_os` value a host triple stands for, for the hosts this project builds on.
fn host_os(host: &str) -> Option<&'static str> {
    [
        ("-linux", "linux"),
        ("-apple-darwin", "macos"),
        ("-freebsd", "freebsd"),
        ("-cygwin", "cygwin"),
        ("-netbsd", "netbsd"),
        ("-openbsd", "openbsd"),
        ("-illumos", "illumos"),
    ]
    .iter()
    .find(|(part, _)| host.contains(part))
    .map(|(_, os)| *os)
}

/// The `rustc` Cargo builds the crate with.
pub fn rustc() -> PathBuf {
    PathBuf::from(env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
}

/// The RUSTFLAGS the crate itself is built with (they may choose another libc or linker).
pub fn encoded_rustflags() -> Vec<String> {
    env::var("CARGO_ENCODED_RUSTFLAGS")
        .map(|flags| {
            flags
                .split('\x1f')
                .filter(|f| !f.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}
