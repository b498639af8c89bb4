//! Build script (being written: builds the C child helper).
fn main() {}
