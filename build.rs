//! Build script: compiles the C child helper for the target (to embed it) and decides, by
//! link probes, which newer spawn symbols a static build may reference.
//!
//! Each job lives in its own module under `build/`.

#[path = "build/bench_vfork.rs"]
mod bench_vfork;
#[path = "build/child.rs"]
mod child;
#[path = "build/hash.rs"]
mod hash;
#[path = "build/link_probe.rs"]
mod link_probe;
#[path = "build/raw_sigaction.rs"]
mod raw_sigaction;
#[path = "src/sys/symbols.rs"]
mod symbols;
#[path = "build/target.rs"]
mod target;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    let target = target::Target::from_env();
    println!("cargo:rustc-env=SPAWNMATRIX_TARGET={}", target.triple);
    child::embed(&target);
    link_probe::probe(&target);
    bench_vfork::build(&target);
    raw_sigaction::decide(&target);
}
