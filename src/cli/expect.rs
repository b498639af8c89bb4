//! `spawnmatrix expect`: runs the `libc` subject of every case here and writes (or refreshes)
//! this target's expectation file, sorted by case id so the diff is reviewable. With
//! `--claims` it runs nothing: it writes every family's `expectations/claims.yaml` from the
//! claims in its `platform.yaml` (`spawnmatrix::published::claims`).

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
    /// Write (with --check: compare) every family's expectations/claims.yaml, generated from
    /// the `cases.<id>.libc` claims of its platform.yaml, instead of running the cases.
    #[arg(long, conflicts_with = "out")]
    claims: bool,
    /// Trials run at once.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
}

pub fn run(args: Args) -> CliResult {
    if args.claims {
        return claims(&args);
    }
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

/// `--claims`: every family's generated file, written or (`--check`) compared; a file no
/// family's claims give any more is removed (or, with `--check`, reported).
fn claims(args: &Args) -> CliResult {
    let targets = args.tree.targets()?;
    let cases = spawnmatrix::conformance::load::load_dir(&args.tree.cases()?)?;
    let files = spawnmatrix::published::claims::files(&targets, &cases)?;
    let mut stale = Vec::new();
    for (path, file) in &files {
        let text = file.render()?;
        if std::fs::read_to_string(path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        stale.push(path.display().to_string());
        if !args.check {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            spawnmatrix::atomic::write_with_mode(path, text.as_bytes(), 0o644)?;
        }
    }
    for dir in std::fs::read_dir(&targets)? {
        let old = spawnmatrix::conformance::claims::path_for(
            &targets,
            &dir?.file_name().to_string_lossy(),
        );
        if old.is_file() && !files.iter().any(|(p, _)| *p == old) {
            stale.push(format!("{} (no claims give it)", old.display()));
            if !args.check {
                std::fs::remove_file(&old)?;
            }
        }
    }
    let verb = if args.check { "stale" } else { "written" };
    for path in &stale {
        println!("{verb}: {path}");
    }
    println!(
        "claims: {} families' files, {} {verb}",
        files.len(),
        stale.len()
    );
    Ok(if args.check && !stale.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
