//! The `spawnmatrix` binary as a user runs it: option handling, errors, `diff`, `--check`.
//! Every test runs the built executable; the modules share the helpers below.

#[path = "cli/check.rs"]
mod check;
#[path = "cli/common.rs"]
mod common;
#[path = "cli/diff.rs"]
mod diff;
#[path = "cli/errors.rs"]
mod errors;
#[path = "cli/flags.rs"]
mod flags;
#[path = "cli/query.rs"]
mod query;

use common::{bin, report, run, stderr, write};
