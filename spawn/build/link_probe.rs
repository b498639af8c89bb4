//! Static builds cannot `dlsym`, so which newer spawn symbols the target libc has is decided
//! here: one tiny Rust program per symbol is linked with the real target toolchain (same
//! `rustc`, target, RUSTFLAGS and linker as the crate). Link success means present; each
//! present symbol becomes `cfg(spawnmatrix_static_has = "<symbol>")`.
//!
//! If even the baseline (`posix_spawn`) does not link, the probe itself is broken; then
//! `cfg(spawnmatrix_link_probe_failed)` is set and a warning says why.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::symbols::{LIBC_MARKERS, SPAWN_SYMBOLS};
use crate::target::{encoded_rustflags, rustc, Target};

pub fn probe(target: &Target) {
    let all = || SPAWN_SYMBOLS.iter().chain(LIBC_MARKERS);
    let values: Vec<String> = all().map(|s| format!("\"{s}\"")).collect();
    println!(
        "cargo::rustc-check-cfg=cfg(spawnmatrix_static_has, values({}))",
        values.join(", ")
    );
    println!("cargo::rustc-check-cfg=cfg(spawnmatrix_link_probe_failed)");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
    if !target.crt_static() {
        return;
    }
    let dir = target.out_dir.join("link-probes");
    std::fs::create_dir_all(&dir).expect("creating OUT_DIR/link-probes");
    // Start every probe, then collect: the links run in parallel.
    let running: Vec<(&str, Result<Child, String>)> = all()
        .map(|symbol| (*symbol, start(target, &dir, symbol)))
        .collect();
    let results: Vec<(&str, Result<(), String>)> = running
        .into_iter()
        .map(|(symbol, child)| (symbol, child.and_then(finish)))
        .collect();
    if let Some((_, Err(why))) = results.iter().find(|(s, _)| *s == SPAWN_SYMBOLS[0]) {
        println!(
            "cargo:warning=link probe for {} does not work, newer spawn symbols count as \
             absent: {why}",
            target.triple
        );
        println!("cargo:rustc-cfg=spawnmatrix_link_probe_failed");
        return;
    }
    for (symbol, result) in results {
        if result.is_ok() {
            println!("cargo:rustc-cfg=spawnmatrix_static_has=\"{symbol}\"");
        }
    }
}

/// Writes the probe for `symbol` and starts `rustc` on it.
fn start(target: &Target, dir: &Path, symbol: &str) -> Result<Child, String> {
    let source = dir.join(format!("{symbol}.rs"));
    let program = format!(
        "extern \"C\" {{\n    #[link_name = \"{symbol}\"]\n    fn probed();\n}}\n\
         fn main() {{\n    let address = probed as unsafe extern \"C\" fn() as usize;\n    \
         std::process::exit(std::hint::black_box(address == 1) as i32);\n}}\n"
    );
    std::fs::write(&source, program).map_err(|e| format!("writing {}: {e}", source.display()))?;
    let mut cmd = Command::new(rustc());
    cmd.args([
        "--edition",
        "2021",
        "--crate-type",
        "bin",
        "--cap-lints",
        "allow",
    ])
    .args([
        "-C",
        "opt-level=0",
        "-C",
        "debuginfo=0",
        "--target",
        &target.triple,
    ])
    .args(encoded_rustflags())
    .arg("-o")
    .arg(dir.join(symbol))
    .arg(&source)
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    if let Some(linker) = std::env::var_os("RUSTC_LINKER") {
        cmd.arg("-C")
            .arg(format!("linker={}", PathBuf::from(linker).display()));
    }
    cmd.spawn().map_err(|e| format!("running {cmd:?}: {e}"))
}

fn finish(child: Child) -> Result<(), String> {
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr
        .lines()
        .find(|l| l.contains("undefined") || l.contains("error"));
    Err(first.unwrap_or("link failed").trim().to_string())
}
