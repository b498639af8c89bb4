//! An expectation file (`targets/<family>/expectations/<version>.yaml`): parsed, its ids
//! checked against the known cases and its outcomes against the grammar, or a typed error;
//! never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// A few real case ids, so entries can pass the id check and reach the outcome parser.
const KNOWN: &[&str] = &["exec-enoent", "fa-add-ebadf", "chdir-api-names", "fa-open-replaces-target"];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = std::path::Path::new("fuzz.yaml");
    let _ = spawnmatrix::conformance::expectations::parse(path, &text, KNOWN);
});
