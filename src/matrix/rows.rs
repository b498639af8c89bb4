//! How a report's contents become rows: stable dotted ids and the groups they belong to.

use std::collections::BTreeMap;

use super::cases::CaseIndex;
use super::model::{Cell, Evidence, Group, Value};
use crate::report::{
    Capability, CaseResult, Fuzz, ParentShape, Perf, PerfEntry, Report, SandboxRun,
};

/// The row id of a capability: flags are `POSIX_SPAWN_*`, kernel features say `how: kernel...`
/// (or are already named `kernel.<x>`), everything else is a function.
pub fn capability_row(name: &str, cap: &Capability) -> String {
    if name.contains('.') {
        name.to_string()
    } else if name.starts_with("POSIX_SPAWN_") {
        format!("flags.{name}")
    } else if cap.how.starts_with("kernel") {
        format!("kernel.{name}")
    } else {
        format!("functions.{name}")
    }
}

pub fn case_row(case_id: &str, subject: &str) -> String {
    format!("cases.{case_id}.{subject}")
}

pub fn perf_row(strategy: &str, parent: &PerfEntry) -> String {
    format!("perf.{strategy}.ratio_to_floor.{}", parent_segment(parent))
}

/// How a strategy's cost grows with the parent: its median at `parent` over its median with
/// no ballast (1.0 when the cost does not depend on the parent's size or shape).
pub fn growth_row(strategy: &str, parent: &PerfEntry) -> String {
    format!("perf.{strategy}.growth.{}", parent_segment(parent))
}

/// `1024mib` for touched memory, `fragmented.1024mib` for another shape.
fn parent_segment(e: &PerfEntry) -> String {
    match e.shape {
        ParentShape::Touched => format!("{}mib", e.parent_mib),
        shape => format!("{}.{}mib", shape.name(), e.parent_mib),
    }
}

/// The case id of a `cases.<case-id>.<subject>` row.
pub fn case_of(row: &str) -> Option<&str> {
    let rest = row.strip_prefix("cases.")?;
    Some(rest.rsplit_once('.').map_or(rest, |(case, _)| case))
}

/// The group a row id belongs to: its first segment, or `cases.<area>` for cases.
pub fn group_of(row: &str, cases: &CaseIndex) -> String {
    match case_of(row) {
        Some(case) => format!("cases.{}", cases.area(case)),
        None => row.split('.').next().unwrap_or(row).to_string(),
    }
}

/// The group's place in the table (functions, flags, kernel, cases by area, perf) and title.
pub fn group(id: &str, cases: &CaseIndex) -> ((u8, usize), Group) {
    let (rank, title) = match id {
        "functions" => ((0, 0), String::from("Functions")),
        "flags" => ((1, 0), String::from("Attribute flags")),
        "kernel" => ((2, 0), String::from("Kernel features")),
        "crate" => (
            (2, 1),
            String::from("This crate's own support on the target (apart from the kernel's)"),
        ),
        "fuzz" => (
            (5, 0),
            String::from(
                "Differential fuzzing (sequences run; divergences from the fork+exec reference)",
            ),
        ),
        "sandbox" => (
            (5, 1),
            String::from(
                "Under sandbox profiles: seccomp filters, RLIMIT_NPROC reached, valgrind and qemu-user (vfork run as fork) (the strategy Auto took; what each forced strategy answered)",
            ),
        ),
        "perf" => (
            (4, 0),
            String::from(
                "Spawn cost (ratio to the fastest raw method; growth: cost at N MiB over cost at 0)",
            ),
        ),
        other => match other.strip_prefix("cases.") {
            Some(area) => (
                (3, cases.area_rank(area)),
                format!("Conformance cases: {area}"),
            ),
            None => ((6, 0), other.to_string()),
        },
    };
    (
        rank,
        Group {
            id: id.to_string(),
            title,
        },
    )
}

fn capability_cell(cap: &Capability, evidence: Evidence) -> Cell {
    Cell {
        how: Some(cap.how.clone()),
        note: cap.note.clone(),
        source: cap.source.clone(),
        ..Cell::new(Value::Bool(cap.available), evidence)
    }
}

fn case_cell(result: &CaseResult, evidence: Evidence) -> Cell {
    Cell {
        verdict: Some(result.verdict.clone()),
        note: result.note.clone(),
        ..Cell::new(Value::Text(result.outcome.clone()), evidence)
    }
}

fn perf_cells(perf: &Perf, evidence: Evidence) -> impl Iterator<Item = (String, Cell)> + '_ {
    let ratios = perf.entries.iter().map(move |e| {
        let pinned = perf.pinned_cpu.map_or("", |_| "; pinned to one CPU");
        let note = format!(
            "median {:.1} µs (min {:.1}, p90 {:.1}) over {} spawns; floor: {}{pinned}",
            e.median_us, e.min_us, e.p90_us, perf.iterations, perf.floor
        );
        let cell = Cell {
            note: Some(note),
            ..Cell::new(Value::Number(e.ratio_to_floor), evidence)
        };
        (perf_row(&e.strategy, e), cell)
    });
    ratios.chain(growth_cells(perf, evidence))
}

/// For each strategy measured with no ballast, its cost at every larger parent size over
/// that cost: the rows that say whether a spawn path copies the parent's page tables.
fn growth_cells(perf: &Perf, evidence: Evidence) -> impl Iterator<Item = (String, Cell)> + '_ {
    perf.entries
        .iter()
        .filter(|e| e.parent_mib > 0)
        .filter_map(move |e| {
            let base = perf
                .entries
                .iter()
                .find(|b| b.strategy == e.strategy && b.parent_mib == 0 && b.shape.is_touched())
                .filter(|b| b.median_us > 0.0)?;
            let shape = match e.shape {
                ParentShape::Touched => String::new(),
                shape => format!(" {}", shape.name()),
            };
            let note = format!(
                "median {:.1} µs at {} MiB{shape} over {:.1} µs with no ballast, same run",
                e.median_us, e.parent_mib, base.median_us
            );
            let cell = Cell {
                note: Some(note),
                ..Cell::new(Value::Number(e.median_us / base.median_us), evidence)
            };
            Some((growth_row(&e.strategy, e), cell))
        })
}

/// A campaign's rows: `fuzz.sequences`, `fuzz.unexplained` and `fuzz.explained.<rule>`.
fn fuzz_cells(fuzz: &Fuzz, evidence: Evidence) -> impl Iterator<Item = (String, Cell)> + '_ {
    let number = move |n: u64, note: String| Cell {
        note: Some(note),
        ..Cell::new(Value::Number(n as f64), evidence)
    };
    let load = fuzz
        .load_average
        .map_or(String::new(), |l| format!(", load average {l:.1}"));
    let run = format!(
        "seed {}, {:.0} s ({:.0}/s, {} job(s){load})",
        fuzz.seed,
        fuzz.seconds,
        fuzz.sequences as f64 / fuzz.seconds.max(1e-9),
        fuzz.jobs
    );
    let unexplained = match fuzz.unexplained.first() {
        Some(f) => format!(
            "first: {} gave {} where the reference gave {}; replay: {}",
            f.subject, f.got, f.reference, f.sequence
        ),
        None => String::from("none"),
    };
    [
        (String::from("fuzz.sequences"), number(fuzz.sequences, run)),
        (
            String::from("fuzz.unexplained"),
            number(fuzz.unexplained.len() as u64, unexplained),
        ),
    ]
    .into_iter()
    .chain(fuzz.explained.iter().map(move |(rule, e)| {
        let note = format!("documented difference; conformance case {}", e.case);
        (format!("fuzz.explained.{rule}"), number(e.count, note))
    }))
}

/// One profile's rows: `sandbox.<profile>.auto` (the strategy `Auto` took),
/// `sandbox.<profile>.forced.<strategy>` (`works`, `unsupported` or the error) and
/// `sandbox.<profile>.libc.<call>` (what the raw libc did).
fn sandbox_cells<'a>(
    profile: &'a str,
    run: &'a SandboxRun,
    evidence: Evidence,
) -> impl Iterator<Item = (String, Cell)> + 'a {
    let text = move |value: &str| Cell {
        note: Some(format!(
            "observed under the seccomp profile {profile} (spawnmatrix sandbox {profile} --observe)"
        )),
        ..Cell::new(Value::Text(value.to_string()), evidence)
    };
    let forced = run.forced.iter().map(move |(strategy, outcome)| {
        (
            format!("sandbox.{profile}.forced.{strategy}"),
            text(outcome),
        )
    });
    let libc = run
        .libc
        .iter()
        .map(move |(call, outcome)| (format!("sandbox.{profile}.libc.{call}"), text(outcome)));
    std::iter::once((format!("sandbox.{profile}.auto"), text(&run.auto)))
        .chain(forced)
        .chain(libc)
}

/// Every cell a report contributes to its column, by row id.
pub fn report_cells(report: &Report, evidence: Evidence) -> BTreeMap<String, Cell> {
    let caps = report
        .capabilities
        .iter()
        .map(|(name, cap)| (capability_row(name, cap), capability_cell(cap, evidence)));
    let cases = report.cases.iter().flat_map(|(id, subjects)| {
        subjects
            .iter()
            .map(move |(subject, r)| (case_row(id, subject), case_cell(r, evidence)))
    });
    let perf = report
        .perf
        .iter()
        .flat_map(move |p| perf_cells(p, evidence));
    let fuzz = report
        .fuzz
        .iter()
        .flat_map(move |f| fuzz_cells(f, evidence));
    let sandbox = report
        .sandbox
        .iter()
        .flat_map(move |(profile, run)| sandbox_cells(profile, run, evidence));
    // A report run whole under a seccomp profile (a container's): the strategy Auto took is
    // what Auto does under that profile.
    let whole_run = report
        .platform
        .seccomp_profile()
        .zip(report.auto_strategy.as_deref())
        .map(|(profile, auto)| {
            let cell = Cell {
                note: Some(format!(
                    "the whole run was under the seccomp profile {profile} (the report's image)"
                )),
                ..Cell::new(Value::Text(auto.to_string()), evidence)
            };
            (format!("sandbox.{profile}.auto"), cell)
        });
    caps.chain(cases)
        .chain(perf)
        .chain(fuzz)
        .chain(sandbox)
        .chain(whole_run)
        .chain(whole_run_libc(report, evidence))
        .collect()
}

/// The raw libc's rows of a profile the whole run was under: its own conformance cases of
/// the `libc` subject, run there, say what `spawnmatrix sandbox --observe` would (a plain
/// spawn, `ret-success-pid`; a missing program, `exec-enoent`), in its words.
fn whole_run_libc(report: &Report, evidence: Evidence) -> Vec<(String, Cell)> {
    let Some(profile) = report.platform.seccomp_profile() else {
        return Vec::new();
    };
    let outcome = |case: &str| {
        report
            .cases
            .get(case)
            .and_then(|subjects| subjects.get("libc"))
            .map(|r| r.outcome.as_str())
    };
    [
        ("posix_spawn", "ret-success-pid"),
        ("posix_spawn_missing", "exec-enoent"),
    ]
    .into_iter()
    .filter_map(|(call, case)| {
        let value = match (call, outcome(case)?) {
            (_, "ok") => String::from("works"),
            (_, o) if o.starts_with("returned:") => format!("error: {}", &o["returned:".len()..]),
            ("posix_spawn_missing", o) if o.starts_with("child-exit:") => format!(
                "error lost: returned 0, the child exited {}",
                &o["child-exit:".len()..]
            ),
            (_, o) => format!("case outcome {o}"),
        };
        let cell = Cell {
            note: Some(format!(
                "the conformance case {case} of the raw libc, run with the whole run under the seccomp profile {profile}"
            )),
            ..Cell::new(Value::Text(value), evidence)
        };
        Some((format!("sandbox.{profile}.libc.{call}"), cell))
    })
    .collect()
}

impl Cell {
    /// A cell with only its value and evidence.
    pub fn new(value: Value, evidence: Evidence) -> Cell {
        Cell {
            value,
            evidence,
            how: None,
            verdict: None,
            note: None,
            source: None,
            since: None,
            began: None,
            claim: None,
            states: Vec::new(),
            doc: None,
            conflicts: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn cap(how: &str) -> Capability {
        Capability {
            available: true,
            how: how.to_string(),
            note: None,
            source: None,
        }
    }

    #[rstest]
    #[case(
        "posix_spawn_file_actions_addchdir_np",
        "dlsym",
        "functions.posix_spawn_file_actions_addchdir_np"
    )]
    #[case("POSIX_SPAWN_SETSID", "setflags", "flags.POSIX_SPAWN_SETSID")]
    #[case("clone3", "kernel-syscall", "kernel.clone3")]
    #[case("kernel.pidfd", "dlsym", "kernel.pidfd")]
    #[case("crate.clone3", "crate-arch", "crate.clone3")]
    fn capability_rows(#[case] name: &str, #[case] how: &str, #[case] row: &str) {
        assert_eq!(capability_row(name, &cap(how)), row);
    }

    #[rstest]
    #[case("functions.posix_spawn", "functions")]
    #[case("cases.exec-enoent.libc", "cases.exec")]
    #[case("cases.fchdir-add-negative-fd.shared", "cases.fchdir")]
    #[case("perf.raw:clone_vfork.ratio_to_floor.0mib", "perf")]
    #[case("perf.libc:posix_spawn.growth.4096mib", "perf")]
    #[case("fuzz.explained.add-no-upper-bound", "fuzz")]
    #[case("sandbox.clone3-eperm.forced.clone3", "sandbox")]
    fn groups_without_case_files(#[case] row: &str, #[case] group: &str) {
        assert_eq!(group_of(row, &CaseIndex::default()), group);
    }

    fn entry(strategy: &str, parent_mib: u64, median_us: f64) -> crate::report::PerfEntry {
        crate::report::PerfEntry {
            strategy: strategy.to_string(),
            parent_mib,
            shape: Default::default(),
            min_us: median_us,
            median_us,
            p90_us: median_us,
            ratio_to_floor: 1.0,
        }
    }

    fn shaped(e: crate::report::PerfEntry, shape: ParentShape) -> crate::report::PerfEntry {
        crate::report::PerfEntry { shape, ..e }
    }

    /// Each shape's ratios are rows of their own, next to the touched sizes'.
    #[rstest]
    #[case(ParentShape::Touched, "perf.raw:fork.ratio_to_floor.1024mib")]
    #[case(
        ParentShape::Fragmented,
        "perf.raw:fork.ratio_to_floor.fragmented.1024mib"
    )]
    #[case(ParentShape::Reserved, "perf.raw:fork.ratio_to_floor.reserved.1024mib")]
    fn perf_rows_name_the_shape(#[case] shape: ParentShape, #[case] row: &str) {
        assert_eq!(
            perf_row("raw:fork", &shaped(entry("raw:fork", 1024, 1.0), shape)),
            row
        );
    }

    /// Growth is each strategy's own median at a size over its median at 0; a strategy with
    /// no 0 MiB entry (or a zero median there) gets no growth row.
    #[rstest]
    #[case("libc:posix_spawn.growth.4096mib", Some(1.1))]
    #[case("raw:fork.growth.256mib", Some(50.0))]
    #[case("raw:fork.growth.4096mib", Some(1000.0))]
    #[case("std:plain.growth.4096mib", None)]
    #[case("shared:auto.growth.4096mib", None)]
    #[case("raw:fork.growth.reserved.65536mib", Some(1.5))]
    #[case("raw:fork.growth.fragmented.1024mib", Some(400.0))]
    fn growth_rows(#[case] row: &str, #[case] expected: Option<f64>) {
        let perf = Perf {
            floor: "raw:clone_vfork".into(),
            iterations: 50,
            pinned_cpu: None,
            entries: vec![
                entry("libc:posix_spawn", 0, 100.0),
                entry("libc:posix_spawn", 4096, 110.0),
                entry("raw:fork", 0, 200.0),
                entry("raw:fork", 256, 10_000.0),
                entry("raw:fork", 4096, 200_000.0),
                entry("std:plain", 4096, 120.0),
                entry("shared:auto", 0, 0.0),
                entry("shared:auto", 4096, 90.0),
                shaped(entry("raw:fork", 65536, 300.0), ParentShape::Reserved),
                shaped(entry("raw:fork", 1024, 80_000.0), ParentShape::Fragmented),
            ],
        };
        let cells: BTreeMap<String, Cell> = growth_cells(&perf, Evidence::Run).collect();
        let got = cells.get(&format!("perf.{row}")).map(|c| match c.value {
            Value::Number(n) => n,
            ref other => panic!("{row}: not a number: {other:?}"),
        });
        match (got, expected) {
            (Some(g), Some(e)) => assert!((g - e).abs() < 1e-9, "{row}: {g} != {e}"),
            (g, e) => assert_eq!(g.is_some(), e.is_some(), "{row}: {g:?}"),
        }
        assert_eq!(cells.len(), 5, "{:?}", cells.keys().collect::<Vec<_>>());
    }

    #[rstest]
    #[case("cases.exec-enoent.libc", "cases.exec-errors")]
    #[case("cases.chdir-enoent.shared", "cases.chdir")]
    #[case("cases.dup2-add-fd-beyond-open-max.std", "cases.file-actions")]
    fn case_groups_are_areas_from_the_case_files(#[case] row: &str, #[case] group: &str) {
        let index = CaseIndex::load_default().unwrap();
        assert_eq!(group_of(row, &index), group);
    }

    /// A campaign gives its sequence count, the unexplained count (with the first finding to
    /// replay) and one row per explaining rule.
    #[rstest]
    #[case(
        "fuzz.sequences",
        100_000.0,
        "seed 7, 500 s (200/s, 4 job(s), load average 3.5)"
    )]
    #[case(
        "fuzz.unexplained",
        1.0,
        "first: libc gave ok where the reference gave add:EBADF; replay: {}"
    )]
    #[case(
        "fuzz.explained.add-no-upper-bound",
        12.0,
        "documented difference; conformance case fa-add-ebadf"
    )]
    fn fuzz_rows(#[case] row: &str, #[case] value: f64, #[case] note: &str) {
        use crate::report::{Fuzz, FuzzExplained, FuzzFinding};
        let fuzz = Fuzz {
            seed: 7,
            sequences: 100_000,
            seconds: 500.0,
            jobs: 4,
            load_average: Some(3.5),
            subjects: BTreeMap::new(),
            explained: [(
                String::from("add-no-upper-bound"),
                FuzzExplained {
                    case: String::from("fa-add-ebadf"),
                    count: 12,
                },
            )]
            .into_iter()
            .collect(),
            unexplained: vec![FuzzFinding {
                index: 3,
                subject: String::from("libc"),
                reference: String::from("add:EBADF"),
                got: String::from("ok"),
                sequence: String::from("{}"),
            }],
        };
        let cells: BTreeMap<String, Cell> = fuzz_cells(&fuzz, Evidence::Run).collect();
        assert_eq!(cells.len(), 3);
        let cell = &cells[row];
        assert_eq!(cell.value, Value::Number(value));
        assert_eq!(cell.note.as_deref(), Some(note));
    }

    /// A report run whole under a seccomp profile (a container under Docker's default
    /// profile): the strategy Auto took is that profile's `auto` row; without the profile in
    /// its image, Auto's choice is no sandbox row.
    #[rstest]
    #[case(
        Some("spawnmatrix/debian:bookworm seccomp=docker-default"),
        Some("sandbox.docker-default.auto")
    )]
    #[case(Some("spawnmatrix/debian:bookworm"), None)]
    #[case(None, None)]
    fn a_whole_run_under_a_profile_is_its_auto_row(
        #[case] image: Option<&str>,
        #[case] row: Option<&str>,
    ) {
        let mut report = crate::matrix::tests::report("glibc", "2.36", "container");
        report.platform.provenance.image = image.map(str::to_string);
        report.auto_strategy = Some(String::from("clone_vfork"));
        let cells = report_cells(&report, Evidence::Run);
        let got: Vec<&str> = cells
            .keys()
            .map(String::as_str)
            .filter(|k| k.starts_with("sandbox."))
            .collect();
        assert_eq!(got, row.into_iter().collect::<Vec<_>>());
        if let Some(row) = row {
            assert_eq!(cells[row].value, Value::Text(String::from("clone_vfork")));
        }
    }

    /// The raw libc's rows of a whole-run profile come from the run's own libc cases, so the
    /// published profile never has them blank: (exec-enoent outcome, missing-program row).
    #[rstest]
    #[case("returned:ENOENT", "error: ENOENT")]
    #[case("child-exit:127", "error lost: returned 0, the child exited 127")]
    #[case("add:EINVAL", "case outcome add:EINVAL")]
    fn a_whole_run_profile_has_its_raw_libc_rows(#[case] enoent: &str, #[case] want: &str) {
        let mut report = crate::matrix::tests::report("glibc", "2.36", "container");
        report.platform.provenance.image = Some(String::from(
            "spawnmatrix/debian:bookworm seccomp=docker-default",
        ));
        let report =
            crate::matrix::tests::with_case(report, "ret-success-pid", "libc", "ok", "pass");
        let report = crate::matrix::tests::with_case(report, "exec-enoent", "libc", enoent, "pass");
        let cells = report_cells(&report, Evidence::Run);
        let value = |row: &str| cells.get(row).map(|c| c.value.to_string());
        assert_eq!(
            value("sandbox.docker-default.libc.posix_spawn").as_deref(),
            Some("works")
        );
        assert_eq!(
            value("sandbox.docker-default.libc.posix_spawn_missing").as_deref(),
            Some(want)
        );
    }

    /// A profile's run becomes its `auto` row and one row per forced strategy, as observed.
    #[test]
    fn sandbox_rows() {
        let run = SandboxRun {
            auto: String::from("fork"),
            forced: [("clone3", "unsupported"), ("fork", "works")]
                .map(|(s, o)| (s.to_string(), o.to_string()))
                .into(),
            libc: [("posix_spawn".to_string(), "error: EPERM".to_string())].into(),
        };
        let mut report = crate::matrix::tests::report("glibc", "2.36", "native");
        report.sandbox.insert(String::from("no-clone-vm"), run);
        let cells = report_cells(&report, Evidence::Run);
        let got: Vec<(&str, &Value)> = cells.iter().map(|(k, c)| (k.as_str(), &c.value)).collect();
        let text = |s: &str| Value::Text(s.to_string());
        assert_eq!(
            got,
            [
                ("sandbox.no-clone-vm.auto", &text("fork")),
                ("sandbox.no-clone-vm.forced.clone3", &text("unsupported")),
                ("sandbox.no-clone-vm.forced.fork", &text("works")),
                (
                    "sandbox.no-clone-vm.libc.posix_spawn",
                    &text("error: EPERM")
                ),
            ]
        );
    }
}
