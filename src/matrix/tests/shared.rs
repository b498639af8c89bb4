//! Issue 29: one fact stated once for several rows (`rows:` + `id:`), the states a value
//! claim carries (`needs:`, `stub:`, `header_only:`), and how the summary reads them: the
//! same on every sibling, shown only where the value is there, no `≤` at the family's first
//! release, and an answer that says where it stops being known.

use std::path::Path;

use rstest::rstest;

use crate::matrix::docs::Family;
use crate::matrix::model::{letters, StateKind, Value};
use crate::matrix::summary::{build, Answer, Summary};
use crate::matrix::version::Release;
use crate::matrix::{merge, MatrixError};

/// A musl-like family: the sched setters are stubs stated once for both rows, a `__USE_GNU`
/// block covers two flags that began at different releases, a POSIX name arrives late.
const MUSL_YAML: &str = r#"
family: linux-musl
title: musl
description: d
match: { os: [linux], libc: [musl] }
version_of: libc
os: linux
libc: musl
doc_columns: ["0.7.11", "0.9.8", "1.1.17", "1.2.5", "1.2.6"]
checked: "2026-11-30"
sources:
  H:
    cite: bminor/musl@2cee45762a1e69444cd711a1a8112a401540081a:include/spawn.h:1
    note: "<spawn.h>: posix_spawn, RESETIDS, SETSID, addchdir_np and addfchdir; the whole <spawn.h>"
  SCHED:
    cite: bminor/musl@2cee45762a1e69444cd711a1a8112a401540081a:src/process/posix_spawnattr_sched.c:1
    note: posix_spawnattr_{get,set}sched{param,policy} return ENOSYS
claims:
  - row: functions.posix_spawn
    since: "0.7.11"
    source: H
  - id: MUSL-SCHED
    rows: [functions.posix_spawnattr_setschedparam, functions.posix_spawnattr_setschedpolicy]
    since: "0.9.8"
    stub: ENOSYS
    source: SCHED
    note: every sched setter returns ENOSYS
  - row: flags.POSIX_SPAWN_SETSID
    since: "1.1.17"
    source: H
  - row: flags.POSIX_SPAWN_RESETIDS
    from: "0.7.11"
    source: H
  - id: MUSL-GNU
    rows: [flags.POSIX_SPAWN_RESETIDS, flags.POSIX_SPAWN_SETSID]
    state: needs
    condition: _GNU_SOURCE
    source: H
  - row: functions.posix_spawn_file_actions_addfchdir
    value: false
    through: "1.2.5"
    source: H
  - row: functions.posix_spawn_file_actions_addfchdir
    from: "1.2.6"
    header_only: posix_spawn_file_actions_addfchdir_np
    source: H
  - row: functions.pidfd_spawn
    value: false
    through: "1.2.6"
    source: H
  - row: cases.fchdir-add-negative-fd-posix.libc
    value: unsupported
    through: "1.2.5"
    source: H
  - row: functions.posix_spawn_file_actions_addchdir_np
    since: "1.1.17"
    source: H
  - row: functions.posix_spawn_file_actions_addchdir_np
    state: deprecated
    since: "1.2.6"
    source: H
  - row: cases.chdir-enoent.libc
    value: returned:ENOENT
    from: "1.1.17"
    through: "1.2.5"
    source: H
"#;

fn family(text: &str) -> Result<Family, MatrixError> {
    Family::parse(Path::new("targets/linux-musl/platform.yaml"), text)
}

fn musl() -> Family {
    family(MUSL_YAML).unwrap()
}

/// The summary of the doc columns alone, with the case rows' `uses` as the case files give
/// them.
fn summary() -> Summary {
    let docs = crate::matrix::docs::Docs {
        families: vec![musl()],
    };
    let mut m = merge(&[], &docs).unwrap();
    for row in &mut m.rows {
        row.uses = match row.id.as_str() {
            "cases.fchdir-add-negative-fd-posix.libc" => vec![
                String::from("functions.posix_spawn"),
                String::from("functions.posix_spawn_file_actions_addfchdir"),
            ],
            "cases.chdir-enoent.libc" => vec![
                String::from("functions.posix_spawn"),
                String::from("functions.posix_spawn_file_actions_addchdir_np"),
            ],
            _ => Vec::new(),
        };
    }
    build(&m)
}

fn answer<'s>(s: &'s Summary, row: &str) -> &'s Answer {
    s.rows()
        .find(|r| r.id == row)
        .and_then(|r| r.answers.iter().find(|a| a.family == "linux-musl"))
        .unwrap_or_else(|| panic!("no answer on {row}"))
}

#[rstest]
#[case("functions.posix_spawnattr_setschedparam")]
#[case("functions.posix_spawnattr_setschedpolicy")]
fn one_claim_gives_every_row_it_lists_the_same_value_and_state(#[case] row: &str) {
    let f = musl();
    let at = Release::parse("1.2.5").unwrap();
    let claim = f.claim(row, &at).unwrap();
    assert_eq!(claim.value, Value::Bool(true));
    assert_eq!(claim.claim.as_deref(), Some("MUSL-SCHED"));
    let states = f.states(row, &at);
    assert_eq!(states.len(), 1, "{states:?}");
    assert_eq!(states[0].state, StateKind::Stub);
    assert_eq!(states[0].errno.as_deref(), Some("ENOSYS"));
    assert_eq!(states[0].claim.as_deref(), Some("MUSL-SCHED"));
    assert_eq!(
        states[0].text,
        "stub, every call fails with ENOSYS since 0.9.8"
    );
    // Absent before the claim's first release, as `since` says for one row.
    let before = f.claim(row, &Release::parse("0.9.7").unwrap()).unwrap();
    assert_eq!(before.value, Value::Bool(false));
}

#[test]
fn the_family_lists_each_shared_claim_with_its_rows() {
    let f = musl();
    let ids: Vec<(&str, usize)> = f
        .shared_claims()
        .iter()
        .map(|c| (c.id.as_str(), c.rows.len()))
        .collect();
    assert_eq!(ids, [("MUSL-SCHED", 2), ("MUSL-GNU", 2)]);
}

#[rstest]
#[case::rows_without_id("  - id: MUSL-SCHED\n    rows:", "  - rows:", "has an id")]
#[case::row_and_rows(
    "  - id: MUSL-SCHED\n    rows:",
    "  - id: MUSL-SCHED\n    row: functions.posix_spawn\n    rows:",
    "row or rows, not both"
)]
#[case::one_row_listed(
    "rows: [flags.POSIX_SPAWN_RESETIDS, flags.POSIX_SPAWN_SETSID]",
    "rows: [flags.POSIX_SPAWN_SETSID]",
    "one is row:"
)]
#[case::row_twice(
    "rows: [flags.POSIX_SPAWN_RESETIDS, flags.POSIX_SPAWN_SETSID]",
    "rows: [flags.POSIX_SPAWN_SETSID, flags.POSIX_SPAWN_SETSID]",
    "listed twice"
)]
#[case::id_twice("id: MUSL-GNU", "id: MUSL-SCHED", "names two claims")]
#[case::id_with_spaces("id: MUSL-GNU", "id: MUSL GNU", "only letters")]
#[case::stub_not_an_errno("stub: ENOSYS", "stub: nosys", "names the errno")]
#[case::stub_without_note(
    "    note: every sched setter returns ENOSYS\n",
    "",
    "says what shows it"
)]
#[case::stub_on_a_flag(
    "    from: \"0.7.11\"\n    source: H\n",
    "    from: \"0.7.11\"\n    stub: ENOSYS\n    note: n\n    source: H\n",
    "state of a functions.* row"
)]
#[case::carried_state_on_an_absent_value(
    "    value: false\n    through: \"1.2.5\"\n",
    "    value: false\n    through: \"1.2.5\"\n    needs: _GNU_SOURCE\n",
    "qualify a value that is there"
)]
#[case::carried_state_on_a_state_claim(
    "    condition: _GNU_SOURCE\n",
    "    condition: _GNU_SOURCE\n    stub: ENOSYS\n",
    "go on a value claim"
)]
#[case::errno_on_needs(
    "    condition: _GNU_SOURCE\n",
    "    condition: _GNU_SOURCE\n    errno: ENOSYS\n",
    "errno belongs to state: stub"
)]
#[case::header_only_without_symbol(
    "    condition: _GNU_SOURCE\n",
    "",
    "state needs names its condition"
)]
fn bad_shared_claims_do_not_load(#[case] from: &str, #[case] to: &str, #[case] why: &str) {
    let text = MUSL_YAML.replacen(from, to, 1);
    assert_ne!(text, MUSL_YAML, "the fixture changed");
    let err = family(&text).unwrap_err().to_string();
    assert!(err.contains(why), "{err}");
    assert!(
        err.starts_with("targets/linux-musl/platform.yaml:"),
        "{err}"
    );
}

#[test]
fn a_header_only_state_names_its_symbol() {
    let text = MUSL_YAML.replacen(
        "    header_only: posix_spawn_file_actions_addfchdir_np\n",
        "",
        1,
    ) + "  - row: functions.posix_spawn_file_actions_addfchdir\n    state: header-only\n    from: \"1.2.6\"\n    source: H\n";
    let err = family(&text).unwrap_err().to_string();
    assert!(err.contains("which symbol"), "{err}");
}

/// A block claim covers rows that began at different releases: its state shows where the
/// value is there and nowhere else.
#[rstest]
#[case("flags.POSIX_SPAWN_SETSID", "0.9.8", &[])]
#[case("flags.POSIX_SPAWN_SETSID", "1.1.17", &["needs _GNU_SOURCE"])]
#[case("flags.POSIX_SPAWN_RESETIDS", "0.9.8", &["needs _GNU_SOURCE"])]
#[case("functions.posix_spawnattr_setschedparam", "0.7.11", &[])]
#[case("functions.posix_spawnattr_setschedparam", "0.9.8", &["stub, every call fails with ENOSYS since 0.9.8"])]
fn a_state_shows_only_where_the_value_is_there(
    #[case] row: &str,
    #[case] release: &str,
    #[case] want: &[&str],
) {
    let s = summary();
    let step = answer(&s, row)
        .history
        .iter()
        .find(|st| st.release == release)
        .unwrap_or_else(|| panic!("{row}: no step at {release}"));
    let got: Vec<&str> = step.states.iter().map(|st| st.text.as_str()).collect();
    assert_eq!(got, want, "{row} at {release}");
}

/// The summary's words: `≤` never at the family's first posix_spawn release, a function no
/// release read had is `no (releases)`, a case whose function came later holds through its
/// newest release and is `?` from the change, the stub and header-only states carried.
#[rstest]
#[case("flags.POSIX_SPAWN_RESETIDS", "0.7.11", Some("exact"))]
#[case("functions.posix_spawnattr_setschedparam", "0.9.8", Some("exact"))]
#[case("functions.pidfd_spawn", "no (0.7.11–1.2.6)", None)]
#[case("functions.posix_spawn_file_actions_addfchdir", "1.2.6", Some("exact"))]
#[case(
    "cases.fchdir-add-negative-fd-posix.libc",
    "no addfchdir (0.7.11–1.2.5); ? from 1.2.6",
    None
)]
#[case(
    "cases.chdir-enoent.libc",
    "returned:ENOENT since 1.1.17 through 1.2.5; ? from 1.2.6",
    Some("exact")
)]
fn answers_say_what_the_evidence_allows(
    #[case] row: &str,
    #[case] text: &str,
    #[case] kind: Option<&str>,
) {
    let s = summary();
    let a = answer(&s, row);
    assert_eq!(a.text, text, "{a:#?}");
    let json = serde_json::to_value(&a.boundary).unwrap();
    assert_eq!(json["kind"].as_str(), kind, "{json}");
}

#[test]
fn the_floor_is_named_on_the_boundary() {
    let s = summary();
    let a = answer(&s, "flags.POSIX_SPAWN_RESETIDS");
    assert_eq!(
        a.boundary.as_ref().and_then(|b| b.floor()),
        Some("functions.posix_spawn")
    );
    // The block claim's state and the value claim are listed on the answer.
    assert_eq!(a.states[0].claim.as_deref(), Some("MUSL-GNU"));
}

#[test]
fn siblings_of_one_claim_answer_alike() {
    let s = summary();
    let a = answer(&s, "functions.posix_spawnattr_setschedparam");
    let b = answer(&s, "functions.posix_spawnattr_setschedpolicy");
    assert_eq!(
        (&a.text, letters(&a.evidence)),
        (&b.text, letters(&b.evidence))
    );
    assert_eq!(a.claims, ["MUSL-SCHED"]);
    assert_eq!(a.states, b.states);
    let fchdir = answer(&s, "functions.posix_spawn_file_actions_addfchdir");
    assert_eq!(fchdir.states[0].state, StateKind::HeaderOnly);
    assert_eq!(
        fchdir.states[0].symbol.as_deref(),
        Some("posix_spawn_file_actions_addfchdir_np")
    );
    assert!(
        crate::matrix::consistency::check(&s).is_empty(),
        "{:#?}",
        crate::matrix::consistency::check(&s)
    );
}

/// A family's `unread` reason: rows and a why that says "not read here", about rows it makes
/// no claim on (a claimed row is not unread).
#[rstest]
#[case::row_with_a_claim(
    "unread:\n  - rows: [flags.POSIX_SPAWN_SETSID]\n    why: \"not read here: x\"\n",
    "flags.POSIX_SPAWN_SETSID has claims"
)]
#[case::why_without_its_words(
    "unread:\n  - rows: [cases.exec-enoent.libc]\n    why: no page\n",
    "starts \"not read here: \""
)]
#[case::no_rows("unread:\n  - rows: []\n    why: \"not read here: x\"\n", "needs rows")]
#[case::unsettled_why_without_its_words(
    "unsettled:\n  - rows: [functions.posix_spawn]\n    why: no history\n",
    "starts \"not settled here: \""
)]
#[case::unsettled_no_rows(
    "unsettled:\n  - rows: []\n    why: \"not settled here: x\"\n",
    "unsettled[0]: needs rows"
)]
fn bad_unread_reasons_do_not_load(#[case] unread: &str, #[case] why: &str) {
    let err = family(&format!("{MUSL_YAML}{unread}"))
        .unwrap_err()
        .to_string();
    assert!(err.contains(why), "{err}");
}

#[test]
fn an_unread_reason_loads_for_a_row_without_claims() {
    let text = format!(
        "{MUSL_YAML}unread:\n  - rows: [cases.exec-enoent.libc]\n    why: \"not read here: x\"\n"
    );
    let f = family(&text).unwrap();
    assert_eq!(f.spec.unread[0].rows, ["cases.exec-enoent.libc"]);
}
