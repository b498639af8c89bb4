//! `spawnmatrix fuzz` (being written).

use super::CliResult;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err("this subcommand is not written yet".into())
}
