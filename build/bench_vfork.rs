//! Compiles the benchmark's vfork shim (`src/bench/methods/vfork_shim.c`) and sets
//! `cfg(spawnmatrix_vfork_shim)` when it is linked in. Rust cannot call vfork itself (it
//! returns twice and Rust has no `returns_twice`), so a C function calls it. Cross builds without a
//! C compiler for the target (`cargo check`): they get no shim and no `raw:vfork`.

use crate::target::Target;

const SHIM: &str = "src/bench/methods/vfork_shim.c";

pub fn build(target: &Target) {
    println!("cargo:rustc-check-cfg=cfg(spawnmatrix_vfork_shim)");
    println!("cargo:rerun-if-changed={SHIM}");
    if !target.builds_c() || target.os == "cygwin" {
        return;
    }
    cc::Build::new()
        .file(SHIM)
        .compile("spawnmatrix_bench_vfork");
    println!("cargo:rustc-cfg=spawnmatrix_vfork_shim");
}
