//! Whether the powerpc64le clone3 trampoline (`src/platform/clone3/powerpc64le.rs`) compiles
//! here: inline assembly on PowerPC is stable from Rust 1.95 (rust-lang/rust#147996), above
//! this crate's rust-version, so an older compiler builds the crate without it (clone3 is
//! then refused and `Auto` takes `clone_vfork`). The other trampolines' architectures have
//! stable inline assembly at the rust-version.

use crate::target::{rustc, Target};
use std::process::Command;

/// The first Rust release with stable PowerPC inline assembly.
const PPC_ASM_STABLE: (u32, u32) = (1, 95);

pub fn decide(target: &Target) {
    println!("cargo::rustc-check-cfg=cfg(spawnmatrix_clone3_powerpc64le)");
    let little = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "little");
    if target.arch == "powerpc64"
        && little
        && target.os == "linux"
        && rustc_version().is_some_and(|v| v >= PPC_ASM_STABLE)
    {
        println!("cargo:rustc-cfg=spawnmatrix_clone3_powerpc64le");
    }
}

/// `(major, minor)` from `rustc --version` (`rustc 1.95.0 (...)`, `rustc 1.96.0-nightly ...`).
fn rustc_version() -> Option<(u32, u32)> {
    let out = Command::new(rustc()).arg("--version").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let version = text.split_whitespace().nth(1)?;
    let mut parts = version.split(['.', '-']);
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}
