//! The consistency checks of `matrix::consistency` over the committed summary
//! (`docs/summary.json`, kept current by ci/checks/45-published.sh), and each check shown
//! failing on a contradiction planted into a copy of it (issue 20, item 5).

use std::path::Path;

use serde_json::{json, Value};
use spawnmatrix::matrix::consistency::{check, Check, Problem};
use spawnmatrix::matrix::summary::Summary;
use spawnmatrix::published::Published;

fn committed_json() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/summary.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn summary(v: Value) -> Summary {
    let text = serde_json::to_string(&v).unwrap();
    Published::parse(Path::new("docs/summary.json"), &text)
        .expect("docs/summary.json parses")
        .summary()
}

/// The answer object of `family` on row `row`, to change.
fn answer<'v>(v: &'v mut Value, row: &str, family: &str) -> &'v mut Value {
    v["sections"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|s| s["rows"].as_array_mut().unwrap().iter_mut())
        .find(|r| r["id"] == row)
        .unwrap_or_else(|| panic!("no row {row}"))["answers"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|a| a["family"] == family)
        .unwrap_or_else(|| panic!("no answer of {family} on {row}"))
}

/// Contradictions the committed data still holds, each (check, family, row): none since the
/// data sweep (issue 20, item 4) landed. An entry that no longer fires fails the test, so the
/// list only shrinks.
const KNOWN: &[(Check, &str, &str)] = &[];

fn key(p: &Problem) -> (Check, &str, &str) {
    (p.check, p.family.as_str(), p.row.as_str())
}

#[test]
fn the_committed_summary_has_no_contradictions_but_the_known_ones() {
    let problems = check(&summary(committed_json()));
    let new: Vec<String> = problems
        .iter()
        .filter(|p| !KNOWN.contains(&key(p)))
        .map(Problem::to_string)
        .collect();
    assert!(
        new.is_empty(),
        "contradictions in docs/summary.json: {new:#?}"
    );
    let fixed: Vec<&(Check, &str, &str)> = KNOWN
        .iter()
        .filter(|k| !problems.iter().any(|p| key(p) == **k))
        .collect();
    assert!(fixed.is_empty(), "fixed now, drop from KNOWN: {fixed:?}");
}

/// Plants one contradiction into the committed summary and returns what the checks say
/// about that family and row that they did not say before.
fn planted(family: &str, row: &str, plant: impl FnOnce(&mut Value)) -> Vec<Check> {
    let before = check(&summary(committed_json()));
    let mut v = committed_json();
    plant(&mut v);
    check(&summary(v))
        .into_iter()
        .filter(|p| p.family == family && p.row == row && !before.contains(p))
        .map(|p| p.check)
        .collect()
}

#[test]
fn an_error_row_dated_before_its_function_fails() {
    // glibc's exec-enoent shows values from 2.2 on; plant posix_spawn as new in 2.30.
    let got = planted("linux-glibc", "cases.exec-enoent.libc", |v| {
        answer(v, "functions.posix_spawn", "linux-glibc")["boundary"] =
            json!({"kind": "exact", "release": "2.30"});
    });
    assert_eq!(got, [Check::ErrorBeforeFunction]);
}

#[test]
fn an_error_row_unsupported_while_its_function_is_present_fails() {
    // glibc's chdir-enoent as "unsupported" while addchdir_np is there since 2.29.
    let got = planted("linux-glibc", "cases.chdir-enoent.libc", |v| {
        let a = answer(v, "cases.chdir-enoent.libc", "linux-glibc");
        let last = a["history"].as_array_mut().unwrap().last_mut().unwrap();
        last["value"] = json!("unsupported");
    });
    assert!(got.contains(&Check::UnsupportedWhilePresent), "{got:?}");
}

#[test]
fn error_rows_without_a_posix_spawn_row_fail() {
    let got = planted("linux-glibc", "functions.posix_spawn", |v| {
        let row = v["sections"][0]["rows"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|r| r["id"] == "functions.posix_spawn")
            .unwrap();
        row["answers"]
            .as_array_mut()
            .unwrap()
            .retain(|a| a["family"] != "linux-glibc");
    });
    assert_eq!(got, [Check::ErrorsWithoutPosixSpawn]);
}

#[test]
fn two_spellings_of_one_release_fail() {
    // macOS 26 written `26` in one place and `26.0` in the release list.
    let got = planted(
        "macos",
        "functions.posix_spawn_file_actions_addchdir_np",
        |v| {
            let a = answer(v, "functions.posix_spawn_file_actions_addchdir_np", "macos");
            for h in a["history"].as_array_mut().unwrap() {
                if h["release"] == "26.0" {
                    h["release"] = json!("26");
                }
            }
        },
    );
    assert_eq!(got, [Check::TwoSpellings]);
}

#[test]
fn an_exact_boundary_that_is_an_interval_fails() {
    // FreeBSD addchdir_np: 13.0 lacks it and a 13.2 tree has it, so "13.2" after 13.0 is
    // an interval (13.1–13.2), not exact.
    let row = "functions.posix_spawn_file_actions_addchdir_np";
    let got = planted("freebsd", row, |v| {
        let a = answer(v, row, "freebsd");
        a["boundary"] = json!({"kind": "exact", "release": "13.2", "after": "13.0"});
        a["text"] = json!("13.2");
    });
    assert_eq!(got, [Check::ExactButInterval]);
    // ... and an exact boundary with neither a known-different release before it nor a
    // source that documents it as the first.
    let row = "flags.POSIX_SPAWN_RESETIDS";
    let got = planted("linux-glibc", row, |v| {
        let a = answer(v, row, "linux-glibc");
        a["boundary"] = json!({"kind": "exact", "release": "2.31"});
    });
    assert_eq!(got, [Check::ExactButInterval]);
}

#[test]
fn the_same_sources_with_different_evidence_fail() {
    // posix_spawnp and posix_spawn rest on glibc's NEWS 2.2; drop the D from one.
    let got = planted("linux-glibc", "functions.posix_spawnp", |v| {
        answer(v, "functions.posix_spawnp", "linux-glibc")["evidence"] = json!(["link"]);
    });
    assert_eq!(got, [Check::SameSourcesDifferentEvidence]);
}

/// The boundaries and states issue 20 names, as the committed summary prints them.
#[rstest::rstest]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addchdir_np",
    "13.1–13.2",
    "interval",
    None
)]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addfchdir_np",
    "13.1–13.2",
    "interval",
    None
)]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addclosefrom_np",
    "13.1–13.2",
    "interval",
    None
)]
#[case(
    "macos",
    "functions.posix_spawn_file_actions_addchdir",
    "26.0",
    "exact",
    Some("needs")
)]
#[case(
    "macos",
    "functions.posix_spawn_file_actions_addchdir_np",
    "10.15",
    "exact",
    Some("deprecated")
)]
#[case(
    "linux-glibc",
    "flags.POSIX_SPAWN_USEVFORK",
    "ignored 2.24",
    "exact",
    Some("ignored")
)]
#[case(
    "android",
    "functions.posix_spawn_file_actions_addchdir_np",
    "14",
    "exact",
    Some("needs")
)]
fn the_named_cells_print_their_boundary_and_state(
    #[case] family: &str,
    #[case] row: &str,
    #[case] text: &str,
    #[case] kind: &str,
    #[case] state: Option<&str>,
) {
    let mut v = committed_json();
    let a = answer(&mut v, row, family).clone();
    assert_eq!(a["text"], text, "{family} {row}: {a}");
    assert_eq!(a["boundary"]["kind"], kind, "{family} {row}: {a}");
    if let Some(state) = state {
        let states = a["states"].as_array().cloned().unwrap_or_default();
        let found = states.iter().find(|s| s["state"] == state);
        let found = found.unwrap_or_else(|| panic!("{family} {row}: no {state} state in {a}"));
        assert!(
            found["source"].as_str().is_some_and(|s| !s.is_empty()),
            "{found}"
        );
    }
}
