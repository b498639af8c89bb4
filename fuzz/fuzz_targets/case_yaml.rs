//! A conformance case file (`conformance/cases/<area>/<id>.yaml`): parsed and checked, or a
//! typed error naming the file and line; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = spawnmatrix::conformance::load::parse_case(std::path::Path::new("fuzz.yaml"), &text);
});
