//! The `spawnmatrix` command: see `spawnmatrix --help`.

fn main() -> std::process::ExitCode {
    // The conformance suite starts this executable again to run one case in isolation.
    if let Some(code) = spawnmatrix::conformance::main_if_runner() {
        return code;
    }
    spawnmatrix_cli::main()
}

#[path = "cli/mod.rs"]
mod spawnmatrix_cli;
