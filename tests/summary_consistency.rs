//! The consistency checks of `matrix::consistency` over the committed summary
//! (`docs/summary.json`, kept current by ci/checks/45-published.sh), and each check shown
//! failing on a contradiction planted into a copy of it (issue 20, item 5; issue 29, item 8),
//! and `spawnmatrix publish --check` refusing a table that breaks one.

use std::path::Path;

#[path = "cli/common.rs"]
mod common;

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
/// about that family and row that they did not say before (printed, for the record).
fn planted_problems(family: &str, row: &str, plant: impl FnOnce(&mut Value)) -> Vec<Problem> {
    let before = check(&summary(committed_json()));
    let mut v = committed_json();
    plant(&mut v);
    let new: Vec<Problem> = check(&summary(v))
        .into_iter()
        .filter(|p| p.family == family && p.row == row && !before.contains(p))
        .collect();
    for p in &new {
        println!("planted: {p}");
    }
    new
}

/// [`planted`] with the answer's `fields` set to the values given.
fn planted_fields(family: &str, row: &str, fields: &Value) -> Vec<Check> {
    planted(family, row, |v| {
        let a = answer(v, row, family).as_object_mut().unwrap();
        for (k, f) in fields.as_object().unwrap() {
            a.insert(k.clone(), f.clone());
        }
    })
}

fn planted(family: &str, row: &str, plant: impl FnOnce(&mut Value)) -> Vec<Check> {
    planted_problems(family, row, plant)
        .into_iter()
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
    // posix_spawn shares its claim with posix_spawnp (GL-NEWS-2.2), so the removal also
    // makes that claim's rows disagree.
    assert!(got.contains(&Check::ErrorsWithoutPosixSpawn), "{got:?}");
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
    assert!(got.contains(&Check::ExactButInterval), "{got:?}");
    // ... and an exact boundary with neither a known-different release before it nor a
    // source that documents it as the first.
    let row = "flags.POSIX_SPAWN_RESETIDS";
    let got = planted("linux-glibc", row, |v| {
        let a = answer(v, row, "linux-glibc");
        a["boundary"] = json!({"kind": "exact", "release": "2.31"});
    });
    assert!(got.contains(&Check::ExactButInterval), "{got:?}");
}

#[test]
fn the_same_sources_with_different_evidence_fail() {
    // posix_spawnp and posix_spawn rest on glibc's NEWS 2.2; drop the D from one.
    let got = planted("linux-glibc", "functions.posix_spawnp", |v| {
        answer(v, "functions.posix_spawnp", "linux-glibc")["evidence"] = json!(["run", "link"]);
    });
    assert!(
        got.contains(&Check::SameSourcesDifferentEvidence),
        "{got:?}"
    );
}

/// FreeBSD's FBSD_1.7 block (`FB-FBSD_1.7`, one claim for add(f)chdir_np and
/// addclosefrom_np) and its attribute page (`FB-ATTR`): siblings answer alike.
#[test]
fn rows_of_one_claim_with_different_letters_fail() {
    let row = "functions.posix_spawn_file_actions_addfchdir_np";
    let got = planted("freebsd", row, |v| {
        answer(v, row, "freebsd")["evidence"] = json!(["doc"]);
    });
    assert!(got.contains(&Check::SharedClaimDisagrees), "{got:?}");
}

#[test]
fn rows_of_one_claim_with_different_states_fail() {
    let row = "flags.POSIX_SPAWN_RESETIDS";
    let got = planted("freebsd", row, |v| {
        answer(v, row, "freebsd")["states"] = json!([{
            "state": "needs", "condition": "_GNU_SOURCE", "source": "FB-8.3-ATTR: x",
            "claim": "FB-ATTR", "text": "needs _GNU_SOURCE"
        }]);
    });
    assert_eq!(got, [Check::SharedClaimDisagrees]);
}

#[test]
fn a_row_that_leaves_its_claim_out_fails() {
    let row = "flags.POSIX_SPAWN_SETPGROUP";
    let got = planted("freebsd", row, |v| {
        answer(v, row, "freebsd")["claims"] = json!([]);
    });
    assert_eq!(got, [Check::SharedClaimDisagrees]);
}

/// glibc 2.44 adds addfchdir, and fchdir-add-negative-fd-posix has no evidence there: shown
/// as today's answer without "through 2.43; ? from 2.44", it fails.
#[test]
fn an_error_row_shown_as_current_after_its_function_changed_fails() {
    let row = "cases.fchdir-add-negative-fd-posix.libc";
    let got = planted("linux-glibc", row, |v| {
        let a = answer(v, row, "linux-glibc");
        let a = a.as_object_mut().unwrap();
        a.remove("through");
        a.remove("unknown_from");
        a.insert("text".into(), json!("unsupported through 2.43"));
    });
    assert!(got.contains(&Check::StaleValueAsCurrent), "{got:?}");
}

#[rstest::rstest]
// A `since` the text does not say (the issue's `≤2.17` under "through 2.43").
#[case("linux-glibc", "cases.exec-enoent.libc", json!({"since": "≤2.17"}))]
// An exact boundary the history does not give: NetBSD's exact 10.0 without the floor that
// makes it so (addfchdir's first release), while the release behind it says at most 10.0.
#[case(
    "netbsd",
    "cases.fchdir-add-negative-fd-posix.libc",
    json!({"boundary": {"kind": "exact", "release": "10.0"}})
)]
// A text that says another start than the boundary.
#[case("macos", "functions.posix_spawn", json!({"text": "10.4"}))]
fn a_boundary_or_since_that_disagrees_with_text_or_history_fails(
    #[case] family: &str,
    #[case] row: &str,
    #[case] fields: Value,
) {
    let got = planted_fields(family, row, &fields);
    assert!(got.contains(&Check::BoundaryDisagrees), "{got:?}");
}

/// The FreeBSD SETSID note: "setflags rejects unknown flags with EINVAL" at 8.3,
/// while attr-setflags-undefined-bit is ok through 13.2.
#[test]
fn a_note_contradicting_a_cell_of_its_family_fails() {
    let row = "flags.POSIX_SPAWN_SETSID";
    let got = planted("freebsd", row, |v| {
        answer(v, row, "freebsd")["notes"] = json!(["setflags rejects unknown flags with EINVAL"]);
    });
    assert_eq!(got, [Check::NoteContradictsCell]);
}

#[rstest::rstest]
// `≤0.7.11` at musl's first posix_spawn release.
#[case(
    "linux-musl",
    "flags.POSIX_SPAWN_SETSCHEDPARAM",
    json!({"boundary": {"kind": "at_most", "release": "0.7.11"}, "since": "≤0.7.11", "text": "ignored ≤0.7.11"})
)]
// "unsupported since ≤8.3" for a case whose addfchdir no FreeBSD release read has.
#[case(
    "freebsd",
    "cases.fchdir-add-negative-fd-posix.libc",
    json!({"boundary": {"kind": "at_most", "release": "8.3"}, "since": "≤8.3", "text": "unsupported since ≤8.3"})
)]
fn words_that_read_as_if_something_held_before_fail(
    #[case] family: &str,
    #[case] row: &str,
    #[case] fields: Value,
) {
    let got = planted_fields(family, row, &fields);
    assert!(got.contains(&Check::MisleadingWords), "{got:?}");
}

/// The family object of `id`, to change.
fn family_json<'v>(v: &'v mut Value, id: &str) -> &'v mut Value {
    v["families"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no family {id}"))
}

/// A `?` cell says why nothing is known (issue 29, item 7): dropping Solaris's stated reason
/// leaves its `?` error rows without one, and a reason naming a row the family answers is
/// stale.
#[rstest::rstest]
#[case::a_question_mark_without_a_reason(
    "solaris",
    "cases.exec-enoent.libc",
    Check::UnknownWithoutReason
)]
#[case::a_sandbox_cell_without_a_reason(
    "sandbox/docker-default",
    "sandbox.forced.fork",
    Check::UnknownWithoutReason
)]
#[case::a_reason_for_an_answered_row("solaris", "functions.posix_spawn", Check::UnreadButAnswered)]
fn a_question_mark_says_why_or_fails(
    #[case] family: &str,
    #[case] row: &str,
    #[case] check: Check,
) {
    let got = planted(family, row, |v| {
        let f = family_json(v, family);
        match check {
            Check::UnreadButAnswered => {
                f["unread"][0]["rows"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!(row));
            }
            _ => {
                f.as_object_mut().unwrap().remove("unread");
            }
        }
    });
    assert_eq!(got, [check]);
}

/// A first release that stays a range says why the history cannot settle it (issue 29, item
/// 5): dropping OpenBSD's or FreeBSD's stated reason leaves the range without one, and a
/// reason naming a row with an exact first release (or none) is stale.
#[rstest::rstest]
#[case::a_range_without_a_reason(
    "openbsd",
    "flags.POSIX_SPAWN_SETSIGMASK",
    Check::RangeWithoutReason
)]
#[case::a_link_range_without_a_reason(
    "freebsd",
    "flags.POSIX_SPAWN_DISABLE_ASLR_NP",
    Check::RangeWithoutReason
)]
#[case::a_reason_for_an_exact_row("openbsd", "functions.posix_spawn", Check::UnsettledButExact)]
#[case::a_reason_for_a_row_with_no_answer(
    "solaris",
    "cases.exec-enoent.libc",
    Check::UnsettledButExact
)]
fn a_range_says_why_or_fails(#[case] family: &str, #[case] row: &str, #[case] check: Check) {
    let got = planted(family, row, |v| {
        let f = family_json(v, family);
        match check {
            Check::UnsettledButExact => match f.get_mut("unsettled") {
                Some(u) => u[0]["rows"].as_array_mut().unwrap().push(json!(row)),
                None => {
                    f["unsettled"] = json!([{"rows": [row], "why": "not settled here: x"}]);
                }
            },
            _ => {
                f.as_object_mut().unwrap().remove("unsettled");
            }
        }
    });
    assert_eq!(got, [check]);
}

/// Which of a family's reasons a cell gives: `unread` (`?`) or `unsettled` (a range).
#[derive(Debug, Clone, Copy)]
enum Said {
    Unread,
    Unsettled,
}

/// Every `?` cell and every range of the committed table has its family's reason (the
/// planted cases above show the checks failing without one), the cell is still what the
/// reason is for, and docs/SUMMARY.md prints it below the table.
#[rstest::rstest]
#[case(Said::Unread, "solaris", "cases.exec-enoent.libc", "no ERRORS section")]
#[case(
    Said::Unread,
    "solaris",
    "functions.posix_spawnattr_setexecfd_np",
    "function set"
)]
#[case(
    Said::Unread,
    "illumos-gate",
    "cases.fchdir-add-negative-fd.libc",
    "spawn.c from 2025 on"
)]
#[case(
    Said::Unread,
    "sandbox/docker-default",
    "sandbox.forced.clone3",
    "not run here"
)]
#[case(
    Said::Unsettled,
    "openbsd",
    "cases.exec-enoent.libc",
    "rev 1.1 (the 5.2 import)"
)]
#[case(
    Said::Unsettled,
    "netbsd",
    "cases.fa-close-not-open.libc",
    "kern_exec.c"
)]
#[case(
    Said::Unsettled,
    "illumos-gate",
    "functions.posix_spawn_file_actions_addchdir_np",
    "no commit log"
)]
#[case(
    Said::Unsettled,
    "freebsd",
    "functions.posix_spawn_file_actions_addchdir_np",
    "releng/13.1"
)]
#[case(
    Said::Unsettled,
    "solaris",
    "flags.POSIX_SPAWN_SETSID",
    "closed source"
)]
fn the_reasons_are_printed(
    #[case] said: Said,
    #[case] family: &str,
    #[case] row: &str,
    #[case] words: &str,
) {
    let s = summary(committed_json());
    let f = s.family(family).unwrap();
    let why = match said {
        Said::Unread => f.unread_why(row),
        Said::Unsettled => f.unsettled_why(row),
    }
    .unwrap_or_else(|| panic!("{family} {row}: no reason"));
    assert!(why.contains(words), "{why}");
    let answer = s
        .rows()
        .filter(|r| r.id == row)
        .flat_map(|r| &r.answers)
        .find(|a| a.family == family);
    let ranged = answer.and_then(|a| a.range()).is_some();
    match said {
        Said::Unread => assert!(answer.is_none(), "{family} {row} has an answer now"),
        Said::Unsettled => assert!(ranged, "{family} {row} is no longer a range"),
    }
    let md = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/SUMMARY.md"))
        .unwrap();
    assert!(md.contains(why), "docs/SUMMARY.md does not print {why:?}");
}

/// A documented cell whose sources do not name its row fails (issue 29's weak citations):
/// each case puts a source text back on a cell in place of what it cites now.
#[rstest::rstest]
#[case::a_note_about_another_function(
    "solaris",
    "functions.posix_spawnp",
    "GNULIB-PS: gnulib: posix_spawn is missing on Solaris 9 (https://example.org)"
)]
#[case::a_man_page_dating_a_different_function(
    "freebsd",
    "functions.posix_spawnp",
    "FB-MAN-POSIX_SPAWN: posix_spawn(3) in the 8.3 release tree: HISTORY 'first appeared in FreeBSD 8.0'"
)]
#[case::a_no_whose_source_lists_other_names(
    "linux-musl",
    "functions.pidfd_spawn",
    "MUSL-SRC: <spawn.h> after 1.2.5: no closefrom, tcsetpgrp or cgroup function"
)]
#[case::a_no_flag_from_a_partial_list(
    "cygwin",
    "flags.POSIX_SPAWN_USEVFORK",
    "CYG-H-FLAGS: <spawn.h> defines RESETIDS and SETPGROUP"
)]
fn a_citation_that_does_not_name_its_row_fails(
    #[case] family: &str,
    #[case] row: &str,
    #[case] source: &str,
) {
    let checks = planted(family, row, |v| {
        answer(v, row, family)["sources"] = json!([source]);
    });
    assert_eq!(checks, [Check::CitationMissesRow], "{family} {row}");
}

/// `spawnmatrix publish --check` refuses a `targets/` whose summary breaks a check: a copy of
/// the committed targets/ with the FreeBSD SETSID note planted back, one with an error value
/// claimed before its function, and one with NetBSD's old note that names no function.
#[rstest::rstest]
#[case(
    "freebsd",
    "    note: not defined in <spawn.h>; what setflags does with its bit is the attr-setflags-undefined-bit row (any bits stored through 13.2, EINVAL in main after 14.0)\n",
    "    note: setflags rejects unknown flags with EINVAL\n",
    "NoteContradictsCell: freebsd flags.POSIX_SPAWN_SETSID"
)]
#[case(
    "freebsd",
    "  - row: cases.fchdir-add-negative-fd.libc\n    value: add:EBADF\n    from: \"13.2\"\n",
    "  - row: cases.fchdir-add-negative-fd.libc\n    value: add:EBADF\n    from: \"8.3\"\n    through: \"13.0\"\n    source: FB-8.3-SRC\n  - row: cases.fchdir-add-negative-fd.libc\n    value: add:EBADF\n    from: \"13.2\"\n",
    "ErrorBeforeFunction: freebsd cases.fchdir-add-negative-fd.libc"
)]
#[case(
    "netbsd",
    "    note: \"NetBSD's wiki: 'NetBSD posix_spawn support was implemented in GSoC 2011, it is included in NetBSD 6.0'; posix_spawn(3) (rev 1.3.4.1), the page of posix_spawn and posix_spawnp, HISTORY: the library parts were ported and a kernel implementation of posix_spawn added for NetBSD 6.0\"\n",
    "    note: \"'included in NetBSD 6.0'\"\n",
    "CitationMissesRow: netbsd functions.posix_spawnp"
)]
fn publish_refuses_a_table_that_breaks_a_check(
    #[case] family: &str,
    #[case] from: &str,
    #[case] to: &str,
    #[case] problem: &str,
) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let targets = tmp.path().join("targets");
    common::copy_dir(&root.join("targets"), &targets);
    let yaml = targets.join(family).join("platform.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    assert!(
        text.contains(from),
        "the plant's anchor is in {family}'s platform.yaml"
    );
    std::fs::write(&yaml, text.replacen(from, to, 1)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_spawnmatrix"))
        .current_dir(root)
        .args(["publish", "--check", "--targets"])
        .arg(&targets)
        .arg("--out")
        .arg(root.join("docs"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("publish --check on the planted table: {stderr}");
    assert!(
        !out.status.success(),
        "publish --check accepted it: {stderr}"
    );
    assert!(stderr.contains("contradicts itself"), "{stderr}");
    assert!(stderr.contains(problem), "{stderr}");
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

/// Every sandbox profile a column ran under answers the raw libc's rows (a container run
/// whole under Docker's default profile from its own libc cases): none is blank.
#[test]
fn the_sandbox_profiles_raw_libc_rows_are_never_blank() {
    let v = committed_json();
    let profiles: Vec<&str> = v["families"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["id"].as_str())
        .filter(|id| id.starts_with("sandbox/"))
        .collect();
    assert!(profiles.contains(&"sandbox/docker-default"), "{profiles:?}");
    let rows: Vec<&Value> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["rows"].as_array().unwrap())
        .collect();
    for id in [
        "sandbox.libc.posix_spawn",
        "sandbox.libc.posix_spawn_missing",
    ] {
        let row = rows
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no {id}"));
        for p in &profiles {
            let a = row["answers"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["family"] == *p);
            let text = a.and_then(|a| a["text"].as_str()).unwrap_or_default();
            assert!(!text.is_empty(), "{p} has no answer on {id}");
        }
    }
}
