//! Command-line front end. One file per subcommand; each owns its `Args` and `run`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `print!` that returns the write's error instead of panicking on it: a closed stdout
/// (`spawnmatrix query --json | head -1`) ends the command quietly ([`main`]).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `println!` as [`out!`] is `print!`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod bench;
mod caps_header;
mod diff;
mod expect;
mod fuzz;
mod linkcheck;
mod main_job;
mod matrix;
mod out;
mod probe;
mod publish;
mod query;
#[cfg(target_os = "linux")]
mod sandbox;
mod soak;
mod stored;

/// Probe this machine's spawn family, run the conformance suite and merge the capability matrix.
///
/// With no subcommand, runs the main job: probe this machine live, merge the result with the
/// reports stored in the repository, write matrix.json, MATRIX.md and index.html to one folder
/// and print the Markdown table.
#[derive(Parser)]
#[command(
    name = "spawnmatrix",
    version,
    about,
    long_about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    main_job: main_job::Args,
}

#[derive(Subcommand)]
enum Command {
    /// Probe this process's spawn capabilities: a summary, or with --json/--out the report,
    /// which also runs the conformance cases.
    ///
    /// Plain `probe` prints which spawn functions and flags this process can use and the
    /// platform, and runs no case. `--json` (the report on stdout) and `--out DIR`
    /// (DIR/report.json) give the JSON report the matrix merges; it includes the conformance
    /// cases, judged against this target's expectation file, unless `--no-cases`.
    Probe(probe::Args),
    /// Merge reports into one matrix (JSON, Markdown, HTML).
    Matrix(matrix::Args),
    /// List what changed between two matrices or reports, regressions first.
    Diff(diff::Args),
    /// Link small C probes against chosen sysroots for link-time evidence.
    Linkcheck(linkcheck::Args),
    /// Measure what a spawn costs, per strategy and per parent size.
    Bench(bench::Args),
    /// Write or refresh a target's expectation file from a run of the suite.
    Expect(expect::Args),
    /// One feature's summary row: since which release each family has it, and how it is known.
    Query(query::Args),
    /// Write (or `--check`) the committed summary, docs/SUMMARY.md and docs/summary.json, and
    /// the compile-time caps docs/spawnmatrix_caps.{h,rs}.
    Publish(publish::Args),
    /// Print spawnmatrix_caps.h, or check it against every link column's sysroot with zig.
    CapsHeader(caps_header::Args),
    /// Differential fuzzing: random file-action sequences through libc, shared and fork+exec.
    Fuzz(fuzz::Args),
    /// Many spawns from several threads; fails when memory, open fds or children grow.
    Soak(soak::Args),
    /// Run a command under a seccomp profile (clone3 refused, CLONE_VM refused).
    #[cfg(target_os = "linux")]
    Sandbox(sandbox::Args),
}

/// Whether an error is stdout closed by its reader: not a failure of the command.
fn closed_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Parses the command line and runs it; errors go to stderr with a non-zero status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => main_job::run(cli.main_job),
        Some(Command::Probe(a)) => probe::run(a),
        Some(Command::Matrix(a)) => matrix::run(a),
        Some(Command::Diff(a)) => diff::run(a),
        Some(Command::Linkcheck(a)) => linkcheck::run(a),
        Some(Command::Bench(a)) => bench::run(a),
        Some(Command::Expect(a)) => expect::run(a),
        Some(Command::Fuzz(a)) => fuzz::run(a),
        Some(Command::Query(a)) => query::run(a),
        Some(Command::Publish(a)) => publish::run(a),
        Some(Command::CapsHeader(a)) => caps_header::run(a),
        Some(Command::Soak(a)) => soak::run(a),
        #[cfg(target_os = "linux")]
        Some(Command::Sandbox(a)) => sandbox::run(a),
    };
    match result {
        Ok(code) => code,
        // The reader has what it wanted (`| head -1`); the rest has nowhere to go.
        Err(e) if closed_pipe(e.as_ref()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("spawnmatrix: {}", describe(e.as_ref()));
            ExitCode::from(2)
        }
    }
}

/// The error and each cause the text so far does not already say (a typed error often
/// repeats its `#[source]` in its own message: say it once).
fn describe(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let cause = s.to_string();
        if !text.contains(&cause) {
            text.push_str("\n  caused by: ");
            text.push_str(&cause);
        }
        source = s.source();
    }
    text
}

/// What every subcommand returns: an exit code, or an error printed with its causes.
pub type CliResult = Result<ExitCode, Box<dyn std::error::Error>>;
