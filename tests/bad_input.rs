//! Bad input at every entry point that takes user data: a typed error that names what is
//! wrong (file and line for data files), and nothing changed.

#[path = "bad_input/cases.rs"]
mod cases;
#[path = "bad_input/outputs.rs"]
mod outputs;
#[path = "bad_input/reports.rs"]
mod reports;
#[path = "bad_input/spawn.rs"]
mod spawn;
#[path = "reliability/subprocess.rs"]
mod subprocess;
