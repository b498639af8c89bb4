//! `spawnmatrix expect`: runs the `libc` subject of every case here and writes (or refreshes)
//! this target's expectation file, sorted by case id so the diff is reviewable.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use spawnmatrix::conformance::expectations::{self, Entry, ExpectationFile};
use spawnmatrix::conformance::outcome::Outcome;
use spawnmatrix::conformance::{self, Options, Subject, Suite};

use super::stored::Tree;
use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tree: Tree,
    /// Folder to write the expectation file to, under the same name (`<version>.yaml`, or
    /// `default.yaml` when the libc has no version to tell) [default:
    /// <targets>/<family>/expectations].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Only compare with the existing file; exit 1 when the outcomes differ.
    #[arg(long)]
    check: bool,
    /// Trials run at once.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
}

pub fn run(args: Args) -> CliResult {
    let targets = args.tree.targets()?;
    let suite = Suite::load(&args.tree.cases()?, &targets)?;
    let options = Options::current()?;
    let results = conformance::run_subjects(&suite, &options, &[Subject::Libc], args.jobs);
    let mut entries = BTreeMap::new();
    for loaded in &suite.cases {
        let Some(result) = results.get(&loaded.case.id).and_then(|r| r.get("libc")) else {
            continue;
        };
        // A skip depends on this machine (privileges), not on the libc: nothing to record.
        if matches!(
            result.outcome.parse::<Outcome>(),
            Ok(Outcome::Skipped(_)) | Err(_)
        ) {
            eprintln!("{}: {} (not recorded)", loaded.case.id, result.outcome);
            continue;
        }
        let outside_posix =
            !loaded.case.expect.any_of.contains(&result.outcome) && result.outcome != "unsupported";
        entries.insert(
            loaded.case.id.clone(),
            Entry {
                outcome: result.outcome.clone(),
                outside_posix,
            },
        );
    }
    let file = ExpectationFile {
        libc: suite.libc.name.clone(),
        version: suite.libc.version.clone(),
        observed_on: format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH),
        cases: entries,
    };
    let mut path = expectations::write_path_for(&targets, &suite.libc);
    if let (Some(dir), Some(name)) = (&args.out, path.file_name()) {
        path = dir.join(name);
    }
    let old = suite.expectations.as_ref().map(|e| &e.cases);
    let changes = changes(old, &file.cases);
    for line in &changes {
        outln!("{line}")?;
    }
    if args.check {
        return Ok(if changes.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // A file of the source tree: readable by everyone, like the rest of the checkout.
    spawnmatrix::atomic::write_with_mode(&path, expectations::render(&file)?.as_bytes(), 0o644)?;
    outln!(
        "{}: {} cases, {} changed",
        path.display(),
        file.cases.len(),
        changes.len()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// One line per case whose outcome is new, gone or different.
fn changes(old: Option<&BTreeMap<String, Entry>>, new: &BTreeMap<String, Entry>) -> Vec<String> {
    let empty = BTreeMap::new();
    let old = old.unwrap_or(&empty);
    let ids: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    ids.into_iter()
        .filter_map(|id| match (old.get(id), new.get(id)) {
            (Some(a), Some(b)) if a == b => None,
            (a, b) => Some(format!(
                "{id}: {} -> {}",
                a.map_or("(none)", |e| e.outcome.as_str()),
                b.map_or("(none)", |e| e.outcome.as_str())
            )),
        })
        .collect()
}
