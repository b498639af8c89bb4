//! Loading and checking case files: `conformance/cases/<area>/<id>.yaml`, one case each.
//!
//! YAML errors come from [`crate::yaml`] with line and column; the checks here (names of
//! signals and flags, outcomes, ids) name the file and the first line that mentions the bad
//! value.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::case::{Action, Case, FdSpec, Scenario};
use super::names;
use super::outcome::Outcome;

/// A case file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("reading {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Yaml(#[from] crate::yaml::YamlError),
    /// A case folder without a single case: a wrong `--cases` would otherwise give a report
    /// that says nothing about conformance.
    #[error("{}: no case files (*.yaml) inside", dir.display())]
    NoCases { dir: PathBuf },
    #[error("{file}:{line}: {message}")]
    Invalid {
        file: String,
        line: usize,
        message: String,
    },
}

/// The default case directory: `SPAWNMATRIX_CASES`, else the working tree's
/// `conformance/cases` ([`crate::worktree`]).
pub fn default_dir() -> PathBuf {
    crate::worktree::cases_dir()
}

/// A case and the file it came from (the runner reloads it from there).
#[derive(Debug, Clone)]
pub struct LoadedCase {
    pub file: PathBuf,
    pub case: Case,
}

/// Every case under `dir` (recursively), sorted by id. Ids must be unique and each file must
/// be named after its case's id.
pub fn load_dir(dir: &Path) -> Result<Vec<LoadedCase>, LoadError> {
    let mut files = Vec::new();
    collect_yaml(dir, &mut files)?;
    files.sort();
    let mut by_id: BTreeMap<String, (PathBuf, Case)> = BTreeMap::new();
    for file in files {
        let case = load_file(&file)?;
        if let Some((first, _)) = by_id.get(&case.id) {
            return Err(invalid(
                &file,
                1,
                format!("case id `{}` is also used by {}", case.id, first.display()),
            ));
        }
        by_id.insert(case.id.clone(), (file, case));
    }
    Ok(by_id
        .into_values()
        .map(|(file, case)| LoadedCase { file, case })
        .collect())
}

fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), LoadError> {
    let io = |source| LoadError::Io {
        path: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_dir() {
            collect_yaml(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
    Ok(())
}

/// One case file, parsed and checked.
pub fn load_file(file: &Path) -> Result<Case, LoadError> {
    let text = std::fs::read_to_string(file).map_err(|source| LoadError::Io {
        path: file.to_path_buf(),
        source,
    })?;
    parse_case(file, &text)
}

/// A case file's text (read from `file`, named in errors), parsed and checked.
pub fn parse_case(file: &Path, text: &str) -> Result<Case, LoadError> {
    let case: Case = crate::yaml::from_str(file, text)?;
    check(&case, file, text)?;
    Ok(case)
}

fn invalid(file: &Path, line: usize, message: String) -> LoadError {
    LoadError::Invalid {
        file: file.display().to_string(),
        line,
        message,
    }
}

/// The first line (1-based) that mentions `needle`, or 1.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map_or(1, |i| i + 1)
}

/// Whether `id` is kebab-case: lowercase words of letters and digits joined by `-`.
pub fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn check(case: &Case, file: &Path, text: &str) -> Result<(), LoadError> {
    let fail = |needle: &str, message: String| Err(invalid(file, line_of(text, needle), message));
    if !is_kebab(&case.id) {
        return fail("id:", format!("case id `{}` is not kebab-case", case.id));
    }
    if file.file_stem().and_then(|s| s.to_str()) != Some(case.id.as_str()) {
        return fail("id:", format!("the file must be named `{}.yaml`", case.id));
    }
    if case.expect.any_of.is_empty() {
        return fail("any_of", "expect.any_of lists no outcome".into());
    }
    let outcomes = case
        .expect
        .any_of
        .iter()
        .chain(
            case.expect
                .shared
                .iter()
                .filter(|s| s.as_str() != super::case::RECORDED),
        )
        .chain(&case.expect.std);
    for text_outcome in outcomes {
        if let Err(e) = text_outcome.parse::<Outcome>() {
            return fail(text_outcome, e.to_string());
        }
    }
    if case.repeat == 0 {
        return fail("repeat", "repeat must be at least 1".into());
    }
    for fd in &case.setup.fds {
        check_fd(fd).or_else(|m| fail(&format!("fd: {}", fd.fd), m))?;
    }
    for sig in signal_names(case) {
        if !names::is_signal_name(sig) {
            return fail(sig, format!("unknown signal `{sig}`"));
        }
    }
    let pending = &case.setup.signals;
    if let Some(sig) = pending
        .pending
        .iter()
        .chain(&pending.thread_pending)
        .find(|s| !pending.blocked.contains(s))
    {
        return fail(sig, format!("pending signal `{sig}` must also be blocked"));
    }
    for flag in case.attrs.iter().flat_map(|a| &a.flags) {
        if !names::is_spawn_flag(flag) {
            return fail(flag, format!("unknown spawn flag `{flag}`"));
        }
    }
    for flags in open_flag_lists(case) {
        if let Some(flag) = names::unknown_open_flag(flags) {
            return fail(flag, format!("unknown open flag `{flag}`"));
        }
    }
    Ok(())
}

fn check_fd(fd: &FdSpec) -> Result<(), String> {
    match (&fd.open, &fd.pipe) {
        (Some(_), None) | (None, Some(_)) => Ok(()),
        _ => Err(format!(
            "fd {} needs exactly one of `open` and `pipe`",
            fd.fd
        )),
    }
}

/// Every signal name a case uses: its setup, attributes, helper options, scenario and checks.
fn signal_names(case: &Case) -> impl Iterator<Item = &String> {
    let signals = &case.setup.signals;
    let checks = &case.expect.child;
    let kernel = checks.kernel.iter().flat_map(|k| {
        [&k.ignored, &k.caught, &k.blocked, &k.pending]
            .into_iter()
            .flatten()
            .flatten()
    });
    let flood = match &case.scenario {
        Some(Scenario::SignalFlood { signal, .. }) => Some(signal),
        _ => None,
    };
    signals
        .blocked
        .iter()
        .chain(&signals.ignored)
        .chain(&signals.handled)
        .chain(&signals.defaulted)
        .chain(&signals.pending)
        .chain(&signals.thread_pending)
        .chain(
            case.attrs
                .iter()
                .flat_map(|a| a.sigmask.iter().chain(&a.sigdefault)),
        )
        .chain(&case.helper.raise)
        .chain(flood)
        .chain(checks.sigmask.iter().flatten())
        .chain(&checks.sigmask_has)
        .chain(&checks.ignored_has)
        .chain(&checks.ignored_lacks)
        .chain(checks.handled.iter().flatten())
        .chain(checks.pending.iter().flatten())
        .chain(kernel)
}

/// Every list of open flags a case uses (setup descriptors and open actions).
fn open_flag_lists(case: &Case) -> impl Iterator<Item = &[String]> {
    let setup = case
        .setup
        .fds
        .iter()
        .filter_map(|fd| fd.open.as_ref().map(|o| o.flags.as_slice()));
    let actions = case.actions.iter().flatten().filter_map(|a| match a {
        Action::Open { flags, .. } => Some(flags.as_slice()),
        _ => None,
    });
    setup.chain(actions)
}

/// Why `case` cannot run on this platform: a signal or open flag it names has no value here
/// (`SIGRTMIN+2` without real-time signals, `O_PATH` outside Linux). The runner reports
/// `unsupported` with this reason.
pub fn unavailable_here(case: &Case) -> Option<String> {
    if let Some(sig) = signal_names(case).find(|s| names::signal(s).is_none()) {
        return Some(format!("{sig} is not a signal here"));
    }
    open_flag_lists(case).find_map(|flags| {
        names::open_flags(flags)
            .err()
            .map(|flag| format!("{flag} is not an open flag here"))
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use rstest::rstest;

    use super::{is_kebab, load_file, LoadError};

    #[rstest]
    #[case("exec-enoent", true)]
    #[case("fa-add-ebadf2", true)]
    #[case("Exec-enoent", false)]
    #[case("exec--enoent", false)]
    #[case("exec_enoent", false)]
    #[case("", false)]
    fn kebab(#[case] id: &str, #[case] ok: bool) {
        assert_eq!(is_kebab(id), ok);
    }

    const GOOD: &str = "id: x-case\ntitle: t\narea: exec-errors\nposix: P12\nspawn: posix_spawn\nprogram: /nonexistent\nexpect:\n  any_of: [returned:ENOENT]\n";

    #[rstest]
    #[case("x-case", GOOD, None)]
    #[case("x-case", &GOOD.replace("any_of: [returned:ENOENT]", "any_of: [returned:enoent]"), Some(8))]
    #[case("x-case", &GOOD.replace("posix: P12\n", "posix: P12\nbogus: 1\n"), Some(5))]
    #[case("x-case", &format!("{GOOD}setup:\n  signals:\n    blocked: [SIGNOPE]\n"), Some(11))]
    #[case("x-case", &format!("{GOOD}setup:\n  signals:\n    blocked: [SIGRTMIN+3]\n"), None)]
    #[case("x-case", &format!("{GOOD}setup:\n  signals:\n    pending: [SIGUSR1]\n"), Some(11))]
    #[case("x-case", &GOOD.replace("any_of: [returned:ENOENT]", "any_of: [ok]\n  child:\n    kernel: {ignored: [SIGNOPE]}"), Some(10))]
    #[case("x-case", &GOOD.replace("any_of: [returned:ENOENT]", "any_of: [ok]\n  child:\n    kernel: {ignored: [SIGHUP], bogus: 1}"), Some(10))]
    #[case("x-case", &format!("{GOOD}actions:\n  - {{op: open, fd: 3, path: x, flags: [O_PATH]}}\n"), None)]
    #[case("x-case", &format!("{GOOD}actions:\n  - {{op: open, fd: 3, path: x, flags: [O_BOGUS]}}\n"), Some(10))]
    #[case("other-name", GOOD, Some(1))]
    fn file_errors_name_the_line(
        #[case] stem: &str,
        #[case] text: &str,
        #[case] bad_line: Option<usize>,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(format!("{stem}.yaml"));
        std::fs::write(&file, text).unwrap();
        match (load_file(Path::new(&file)), bad_line) {
            (Ok(case), None) => assert_eq!(case.id, "x-case"),
            (Err(LoadError::Invalid { line, .. }), Some(want)) => assert_eq!(line, want),
            (Err(LoadError::Yaml(e)), Some(want)) => assert_eq!(e.line, want),
            (other, want) => panic!("{other:?} (wanted an error on line {want:?})"),
        }
    }
}
