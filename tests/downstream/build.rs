//! What a downstream build script does with the published caps: `include!` the generated
//! std-only source and turn the target's answers into cfgs. The release is the oldest one
//! this crate promises to support (a glibc 2.17 baseline, as `cargo zigbuild` builds it);
//! elsewhere the answer is unknown and no cfg is set.

include!("../../docs/spawnmatrix_caps.rs");

fn main() {
    println!("cargo:rerun-if-changed=../../docs/spawnmatrix_caps.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    spawnmatrix_emit_cfgs(&os, &env, "2.17");
}
