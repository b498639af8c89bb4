//! A family's `targets/<family>/platform.yaml` (documented claims with ranges and sources):
//! parsed and checked for consistency, or a typed error; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = std::path::Path::new("targets/fuzz/platform.yaml");
    let _ = spawnmatrix::matrix::docs::Family::parse(path, &text);
});
