//! Build script: decides by link probes which newer spawn symbols a static (`crt-static`)
//! build may reference, and whether the spawn child calls `rt_sigaction` itself. No C is
//! compiled here, so a downstream build needs nothing beyond Rust.
//!
//! Each job lives in its own module under `build/`.

#[path = "build/clone3.rs"]
mod clone3;
#[path = "build/families.rs"]
mod families;
#[path = "build/link_probe.rs"]
mod link_probe;
#[path = "build/raw_sigaction.rs"]
mod raw_sigaction;
#[path = "src/sys/symbols.rs"]
mod symbols;
// Shared with the tool's build script, which uses other parts of it.
#[allow(dead_code)]
#[path = "build/target.rs"]
mod target;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    let target = target::Target::from_env();
    link_probe::probe(&target);
    raw_sigaction::decide(&target);
    clone3::decide(&target);
    families::declare(&target);
}
