//! The library's README (`spawn/README.md`) quotes the stored benchmark runs: a table of
//! ratios to the floor at a 256 MiB parent, as ranges over the runs not under emulation, and
//! two figures at 4 GiB. The figures are the reports' (`targets/reports/*.json`, section
//! `perf`), so this test recomputes each from them and fails when a quoted figure is not the
//! stored one to within its rounding (0.5 %), or when the count of runs it names is not the
//! count of such reports: a new or refreshed report means a README edit.
//!
//! A report "under emulation" is one with a `guest` section (the kernel guests run under
//! QEMU's TCG, where a spawn measures the emulator).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One stored run's perf rows: (method, parent MiB, ratio to the floor).
struct Run {
    file: String,
    rows: Vec<(String, u64, f64)>,
}

fn runs(dir: &Path) -> Vec<Run> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .expect("targets/reports is readable")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for f in files {
        let text = fs::read_to_string(&f).expect("a report is readable");
        let v: Value = serde_json::from_str(&text).expect("a report is JSON");
        let Some(entries) = v["perf"]["entries"].as_array() else {
            continue;
        };
        if v.get("guest").is_some() {
            continue;
        }
        let rows = entries
            .iter()
            .filter_map(|e| {
                Some((
                    e["strategy"].as_str()?.to_string(),
                    e["parent_mib"].as_u64()?,
                    e["ratio_to_floor"].as_f64()?,
                ))
            })
            .collect();
        let file = f.file_name().unwrap().to_string_lossy().into_owned();
        out.push(Run { file, rows });
    }
    out
}

fn close(stated: f64, stored: f64) -> bool {
    (stated - stored).abs() <= 0.005 * stored
}

const COUNTS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];

/// What the README states that the stored runs do not say.
fn readme_problems(readme: &str, runs: &[Run]) -> Vec<String> {
    let mut problems = Vec::new();
    let count = COUNTS.get(runs.len()).copied().unwrap_or("many");
    if !readme.contains(&format!("over the {count} runs not under emulation")) {
        problems.push(format!(
            "the README should say 'over the {count} runs not under emulation'"
        ));
    }
    let mut rows = 0;
    for line in readme
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("| `"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let method = cells[1].split('`').nth(1).unwrap_or("");
        let Some((lo, hi)) = cells[2].split_once('–') else {
            continue;
        };
        rows += 1;
        let ratios: Vec<f64> = runs
            .iter()
            .flat_map(|r| &r.rows)
            .filter(|(m, mib, _)| m == method && *mib == 256)
            .map(|&(_, _, x)| x)
            .collect();
        if ratios.len() != runs.len() {
            problems.push(format!(
                "{method}: {} of {} runs have it at 256 MiB",
                ratios.len(),
                runs.len()
            ));
            continue;
        }
        let min = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let max = ratios.iter().copied().fold(0.0, f64::max);
        let (lo, hi): (f64, f64) = (lo.parse().unwrap_or(-1.0), hi.parse().unwrap_or(-1.0));
        if !close(lo, min) || !close(hi, max) {
            problems.push(format!(
                "{method}: the README says {lo}–{hi}, the stored runs {min:.3}–{max:.3}"
            ));
        }
    }
    if rows == 0 {
        problems.push("no ratio table found".to_string());
    }
    // "At 4 GiB (`FILE`) `shared:auto` is X and `std:path_override` Y."
    let sentence = readme.find("At 4 GiB (`").map(|at| {
        let rest = &readme[at..];
        let end = [". ", ".\n"]
            .iter()
            .filter_map(|e| rest.find(e))
            .min()
            .unwrap_or(rest.len());
        &rest[..end]
    });
    if let Some(line) = sentence {
        let spans: Vec<&str> = line.split('`').collect();
        let file = spans.get(1).copied().unwrap_or("");
        let run = runs.iter().find(|r| r.file == file);
        for i in (3..spans.len()).step_by(2) {
            let method = spans[i];
            let number: String = spans
                .get(i + 1)
                .unwrap_or(&"")
                .chars()
                .filter(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let stated: f64 = number.trim_end_matches('.').parse().unwrap_or(-1.0);
            let stored = run.and_then(|r| {
                r.rows
                    .iter()
                    .find(|(m, mib, _)| m == method && *mib == 4096)
                    .map(|&(_, _, x)| x)
            });
            match stored {
                Some(x) if close(stated, x) => {}
                _ => problems.push(format!(
                    "at 4 GiB, {file} {method}: README {stated}, stored {stored:?}"
                )),
            }
        }
    } else {
        problems.push("no 'At 4 GiB' figures found".to_string());
    }
    problems
}

fn readme() -> String {
    fs::read_to_string(root().join("spawn/README.md")).expect("spawn/README.md is readable")
}

#[test]
fn the_readme_ratios_are_the_stored_runs() {
    let runs = runs(&root().join("targets/reports"));
    let problems = readme_problems(&readme(), &runs);
    assert!(problems.is_empty(), "spawn/README.md: {problems:#?}");
}

#[test]
fn a_changed_figure_or_run_count_is_found() {
    let runs = runs(&root().join("targets/reports"));
    let good = readme();
    let first_row = good
        .lines()
        .find(|l| l.trim_start().starts_with("| `shared:auto`"))
        .expect("the table has shared:auto");
    let bad = good.replace(first_row, &first_row.replace("1.75", "1.50"));
    assert_ne!(bad, good, "the planted change applies");
    let found = readme_problems(&bad, &runs);
    println!("planted shared:auto 1.50: {found:?}");
    assert_eq!(found.len(), 1, "{found:#?}");
    // One run fewer (a report removed) changes the count and the ranges it gives.
    let found = readme_problems(&good, &runs[1..]);
    assert!(
        found.iter().any(|p| p.contains("runs not under emulation")),
        "{found:#?}"
    );
    let bad = good.replace("`std:path_override` 1468", "`std:path_override` 1400");
    assert_eq!(readme_problems(&bad, &runs).len(), 1);
}
