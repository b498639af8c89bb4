//! A stored report (`targets/reports/*.json`) or a matrix, as `spawnmatrix matrix` and
//! `spawnmatrix diff` read them: a report, or a typed error; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = std::path::Path::new("fuzz.json");
    let _ = spawnmatrix::matrix::load::parse_report(path, &text);
    let _ = spawnmatrix::matrix::load::parse_matrix(path, &text);
});
