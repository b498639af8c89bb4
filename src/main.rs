//! The `spawnmatrix` command: see `spawnmatrix --help`.

fn main() -> std::process::ExitCode {
    spawnmatrix_cli::main()
}

#[path = "cli/mod.rs"]
mod spawnmatrix_cli;
