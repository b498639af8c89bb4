//! The conformance suite as one libtest-mimic trial per case and subject (being written).
fn main() {
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), Vec::new()).exit();
}
