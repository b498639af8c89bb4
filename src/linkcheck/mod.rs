//! Link-time evidence: small C probes compiled and linked against chosen sysroots with zig.
//!
//! zig ships the newest headers of each libc, so a header can declare what an old version never
//! had; only the link (or, on macOS, the availability annotations for the deployment target)
//! tells. Each sysroot becomes one [`Report`] with provenance `link`, and every capability in it
//! says what was seen in its `note`. Nothing is inferred: a probe whose diagnostics are not
//! recognised is left out of the report and listed as a problem.

pub mod diagnostics;
pub mod pool;
pub mod probes;
pub mod sysroot;
pub mod zig;

use std::collections::BTreeMap;

use crate::report::{self, Capability, Report};
use diagnostics::Failure;
pub use probes::{Kind, Probe};
pub use sysroot::{Sysroot, SysrootError};
pub use zig::{Zig, ZigMissing};

/// Why a probe gave no capability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// Link evidence cannot tell (a macro defined in headers newer than this version).
    Undetermined(String),
    /// The diagnostics were not recognised, or zig could not run.
    Problem(String),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::Undetermined(why) => write!(f, "undetermined: {why}"),
            Unread::Problem(what) => write!(f, "PROBLEM: {what}"),
        }
    }
}

/// What came of one sysroot.
#[derive(Debug)]
pub enum Outcome {
    /// The probes ran. Probes that gave no capability are listed, not reported: `undetermined`
    /// where link evidence cannot tell, `problems` where something went wrong.
    Checked {
        report: Box<Report>,
        undetermined: Vec<String>,
        problems: Vec<String>,
    },
    /// Not even an empty executable links: no column for this sysroot, with the reason. Such
    /// a sysroot is refused rather than probed some other way, since only a linked program
    /// shows that a symbol resolves.
    Skipped(String),
}

/// What the first step learns about a sysroot: what each flag it defines expands to.
#[derive(Debug, Clone)]
pub struct Setup {
    pub values: BTreeMap<String, String>,
}

/// A step finished, for progress output.
pub enum Event<'a> {
    Baseline(&'a Sysroot, &'a Result<Setup, String>),
    Probe(&'a Sysroot, &'a Probe, &'a Result<Capability, Unread>),
}

/// Checks every probe against every sysroot on at most `jobs` threads. First sets up each
/// sysroot (linking an empty program also warms zig's cache for it), then runs every probe.
pub fn run(
    zig: &Zig,
    sysroots: &[Sysroot],
    jobs: usize,
    progress: &(dyn Fn(Event) + Sync),
) -> Vec<(Sysroot, Outcome)> {
    let setups = pool::map(sysroots, jobs, |s| {
        let setup = setup(zig, s);
        progress(Event::Baseline(s, &setup));
        setup
    });
    let work: Vec<(usize, Probe)> = setups
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_ok())
        .flat_map(|(i, _)| probes::ALL.iter().map(move |p| (i, *p)))
        .collect();
    let found = pool::map(&work, jobs, |(i, probe)| {
        let setup = setups[*i]
            .as_ref()
            .expect("work holds only set-up sysroots");
        let r = check(zig, &sysroots[*i], setup, probe);
        progress(Event::Probe(&sysroots[*i], probe, &r));
        r
    });
    let mut per_sysroot: Vec<Vec<(Probe, Result<Capability, Unread>)>> =
        sysroots.iter().map(|_| Vec::new()).collect();
    for ((i, probe), r) in work.into_iter().zip(found) {
        per_sysroot[i].push((probe, r));
    }
    sysroots
        .iter()
        .zip(setups)
        .zip(per_sysroot)
        .map(|((s, setup), results)| {
            let outcome = match setup {
                Err(reason) => Outcome::Skipped(reason),
                Ok(_) => assemble(zig, s, results),
            };
            (s.clone(), outcome)
        })
        .collect()
}

/// Checks that an executable links against this sysroot, and reads what its flags expand to.
pub fn setup(zig: &Zig, sysroot: &Sysroot) -> Result<Setup, String> {
    baseline(zig, sysroot)?;
    let dir = tempdir()?;
    let pre = zig
        .preprocess(sysroot, &probes::values_source(), dir.path())
        .map_err(|e| format!("running zig: {e}"))?;
    if !pre.success {
        return Err(format!(
            "preprocessing <spawn.h> failed: {}",
            summary(&pre.stderr)
        ));
    }
    Ok(Setup {
        values: probes::parse_values(&pre.stdout),
    })
}

/// Whether an empty executable links against this sysroot. If not, the sysroot is refused:
/// whatever else would link (a shared object) is no evidence that a program could.
pub fn baseline(zig: &Zig, sysroot: &Sysroot) -> Result<(), String> {
    let dir = tempdir()?;
    let out = zig
        .link(sysroot, probes::BASELINE, dir.path())
        .map_err(|e| format!("running zig: {e}"))?;
    if out.success {
        return Ok(());
    }
    Err(format!(
        "refused: no executable links against this sysroot, so it gives no link evidence ({})",
        summary(&out.stderr)
    ))
}

/// Runs one probe and says what it shows, or why it shows nothing.
pub fn check(
    zig: &Zig,
    sysroot: &Sysroot,
    setup: &Setup,
    probe: &Probe,
) -> Result<Capability, Unread> {
    let dir = tempdir().map_err(Unread::Problem)?;
    let io = |e: std::io::Error| Unread::Problem(format!("running zig: {e}"));
    let out = zig.link(sysroot, &probe.source(), dir.path()).map_err(io)?;
    if out.success {
        let mut notes = Vec::new();
        match probe.kind {
            Kind::Flag if !sysroot.headers_are_own() => {
                return Err(Unread::Undetermined(
                    "defined in zig's newest headers, which are not this version's".to_string(),
                ))
            }
            Kind::Flag => match setup.values.get(probe.name) {
                Some(v) => notes.push(format!("defined as {v}")),
                None => {
                    return Err(Unread::Problem(
                        "links, but the preprocessor showed no value".to_string(),
                    ))
                }
            },
            Kind::Function => notes.push("links".to_string()),
        }
        if probe.check_own_symbol {
            let src = probe.own_declaration_source().unwrap_or_default();
            let own = zig.link(sysroot, &src, dir.path()).map_err(io)?;
            if !own.success {
                let undefined = diagnostics::undefined_symbols(&own.stderr);
                if !undefined.iter().any(|s| s == probe.name) {
                    return Err(Unread::Problem(format!(
                        "own-symbol check failed: {}",
                        summary(&own.stderr)
                    )));
                }
                if !sysroot.headers_are_own() {
                    return Err(Unread::Undetermined(
                        "links only through a redirect in zig's newest headers, which are not \
                         this version's"
                            .to_string(),
                    ));
                }
                notes.push("through a header redirect: no symbol of its own".to_string());
            }
        }
        notes.extend(diagnostics::deprecation(&out.stderr, probe.name));
        return Ok(capability(true, notes.join("; ")));
    }
    let what = match probe.kind {
        Kind::Function => "declared",
        Kind::Flag => "defined",
    };
    match diagnostics::classify(&out.stderr, probe.name) {
        Failure::Unavailable(phrase) => {
            Ok(capability(false, format!("availability error: {phrase}")))
        }
        // The empty program links, so whatever is undefined is what the probe referenced:
        // its own name, or the symbol the header redirects it to.
        Failure::Undefined(symbols) if symbols.iter().any(|s| s == probe.name) => Ok(capability(
            false,
            "declared but not linkable (undefined symbol)".to_string(),
        )),
        Failure::Undefined(symbols) => Ok(capability(
            false,
            format!(
                "declared but not linkable (the header maps it to the undefined symbol {})",
                symbols.join(", ")
            ),
        )),
        Failure::Undeclared => {
            let mut note = format!("not {what} in <spawn.h>");
            if !sysroot.headers_are_own() {
                note.push_str(" (zig's newest headers, so not in this older version either)");
            }
            if let Some(src) = probe.own_declaration_source() {
                let own = zig.link(sysroot, &src, dir.path()).map_err(io)?;
                if own.success {
                    note.push_str("; the symbol links with an own declaration");
                } else if undefined_is(&own.stderr, probe.name) {
                    note.push_str("; no such symbol either");
                }
            }
            Ok(capability(false, note))
        }
        Failure::Other(line) => Err(Unread::Problem(format!("unexpected failure: {line}"))),
    }
}

fn undefined_is(stderr: &str, name: &str) -> bool {
    matches!(diagnostics::classify(stderr, name), Failure::Undefined(s) if s.iter().any(|s| s == name))
}

fn capability(available: bool, note: String) -> Capability {
    Capability {
        available,
        how: "link".to_string(),
        note: Some(note),
        source: None,
    }
}

fn assemble(
    zig: &Zig,
    sysroot: &Sysroot,
    results: Vec<(Probe, Result<Capability, Unread>)>,
) -> Outcome {
    let platform = sysroot.platform(&zig.version, zig.musl_version.as_deref());
    let mut capabilities = BTreeMap::new();
    let mut undetermined = Vec::new();
    let mut problems = Vec::new();
    for (probe, r) in results {
        match r {
            Ok(c) => {
                capabilities.insert(probe.name.to_string(), c);
            }
            Err(Unread::Undetermined(why)) => undetermined.push(format!("{}: {why}", probe.name)),
            Err(Unread::Problem(what)) => problems.push(format!("{}: {what}", probe.name)),
        }
    }
    let report = Report {
        schema_version: report::SCHEMA_VERSION,
        suite_version: report::SUITE_VERSION.to_string(),
        generated_at: report::now_rfc3339(),
        platform,
        capabilities,
        cases: BTreeMap::new(),
        auto_strategy: None,
        perf: None,
        fuzz: None,
        sandbox: Default::default(),
        guest: None,
    };
    Outcome::Checked {
        report: Box::new(report),
        undetermined,
        problems,
    }
}

fn tempdir() -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix("spawnmatrix-linkcheck-")
        .tempdir()
        .map_err(|e| format!("creating a temporary directory: {e}"))
}

/// The first error line of a diagnostic dump, for one-line messages.
pub fn summary(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| stderr.lines().next())
        .unwrap_or("no diagnostics")
        .trim()
        .to_string()
}
