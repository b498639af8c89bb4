//! Build script of the tool: compiles the C child helper for the target (to embed it) and the
//! bench's vfork shim, and repeats the library's raw-`sigaction` decision for its own cfg. The library's own decisions (static link probes, raw `sigaction`) are
//! made by `spawn/build.rs`, so a downstream user of `spawnmatrix-spawn` compiles no C.
//!
//! Each job lives in its own module under `build/`.

#[path = "build/bench_vfork.rs"]
mod bench_vfork;
#[path = "build/child.rs"]
mod child;
#[path = "build/hash.rs"]
mod hash;
// The library's decision of the kernel `struct sigaction` layout, so the tool's cfg agrees
// with the library's and may name `sys::kernel_sigaction` where it exists.
#[path = "spawn/build/raw_sigaction.rs"]
mod raw_sigaction;
// The library's target description; this script uses only part of it.
#[allow(dead_code)]
#[path = "spawn/build/target.rs"]
mod target;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-changed=spawn/build/target.rs");
    println!("cargo:rerun-if-changed=spawn/build/raw_sigaction.rs");
    let target = target::Target::from_env();
    println!("cargo:rustc-env=SPAWNMATRIX_TARGET={}", target.triple);
    child::embed(&target);
    bench_vfork::build(&target);
    raw_sigaction::decide(&target);
}
