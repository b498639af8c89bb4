//! The summary: one merged cell per release, "since" read from numerically sorted releases,
//! the documented boundary used when it falls between two known releases.

use rstest::rstest;

use super::*;
use crate::matrix::docs::Family;
use crate::matrix::model::Value;
use crate::matrix::summary::{build, Answer};
use crate::matrix::{merge, Matrix};

const ADDCHDIR: &str = "functions.posix_spawn_file_actions_addchdir_np";

fn link(version: &str, addchdir: bool) -> SourcedReport {
    sourced(
        &format!("link-{version}.json"),
        with_cap(
            report("glibc", version, "link"),
            "posix_spawn_file_actions_addchdir_np",
            addchdir,
        ),
    )
}

fn answer(m: &Matrix, row: &str, family: &str) -> Option<Answer> {
    let s = build(m);
    let found = s
        .rows()
        .find(|r| r.id == row)?
        .answers
        .iter()
        .find(|a| a.family == family)
        .cloned();
    found
}

/// (link reports as version:available, expected text, expected evidence letters)
#[rstest]
// Link 2.28 no, link 2.29 yes; doc column 2.29 and the claim agree: one release, L + D.
#[case(&[("2.28", false), ("2.29", true)], "2.29", "LD")]
// 2.9 < 2.17 < 2.30 as numbers; the first "yes" after the last "no" is 2.30 (claim: 2.29,
// which lies between 2.28 (doc no) and 2.30 (link yes)): the documented boundary wins, and
// the letters are every evidence for the value (the 2.30 link) and its start (the doc).
#[case(&[("2.30", true), ("2.9", false), ("2.17", false)], "2.29", "LD")]
// Observed absent in the newest release: "no" on the link evidence (the claim disagrees).
#[case(&[("2.40", false)], "no", "L")]
fn since_is_read_from_sorted_releases(
    #[case] links: &[(&str, bool)],
    #[case] text: &str,
    #[case] letters: &str,
) {
    let reports: Vec<SourcedReport> = links.iter().map(|(v, a)| link(v, *a)).collect();
    let m = merge(&reports, &glibc_docs()).unwrap();
    let a = answer(&m, ADDCHDIR, "linux-glibc").unwrap();
    assert_eq!(a.text, text, "{a:#?}");
    assert_eq!(
        crate::matrix::render::summary::letters(&a.evidence),
        letters,
        "{a:#?}"
    );
}

#[test]
fn one_release_is_one_step_with_all_its_evidence() {
    let m = merge(&[link("2.29", true)], &glibc_docs()).unwrap();
    let a = answer(&m, ADDCHDIR, "linux-glibc").unwrap();
    let releases: Vec<&str> = a.history.iter().map(|s| s.release.as_str()).collect();
    assert_eq!(
        releases,
        ["2.28", "2.29"],
        "the 2.29 link and doc columns merge"
    );
    assert_eq!(a.history[1].columns.len(), 2);
    assert_eq!(a.history[1].value, Value::Bool(true));
}

#[test]
fn without_an_older_release_the_answer_is_an_upper_bound() {
    let m = merge(&[link("2.35", true)], &Default::default()).unwrap();
    let a = answer(&m, ADDCHDIR, "linux-glibc").unwrap();
    assert_eq!(a.text, "≤2.35");
    assert_eq!(
        a.boundary,
        Some(crate::matrix::model::Boundary::AtMost {
            release: String::from("2.35")
        })
    );
}

#[test]
fn a_disagreement_is_flagged() {
    // Observed absent at 2.36 while the claim says present since 2.29.
    let r = with_cap(
        report("glibc", "2.36", "native"),
        "posix_spawn_file_actions_addchdir_np",
        false,
    );
    let m = merge(&[sourced("r.json", r)], &glibc_docs()).unwrap();
    let a = answer(&m, ADDCHDIR, "linux-glibc").unwrap();
    assert_eq!(a.text, "no");
    assert!(a.disagreement, "{a:#?}");
}

#[test]
fn a_disagreement_that_moved_the_boundary_is_flagged() {
    // Observed absent at 2.36 against the claim "since 2.29", present at 2.39: the answer
    // reads "2.37–2.39" (2.36 is the newest release known without it), and it rests on the
    // contradicted 2.36, so it is flagged too.
    let run = with_cap(
        report("glibc", "2.36", "native"),
        "posix_spawn_file_actions_addchdir_np",
        false,
    );
    let m = merge(&[sourced("r.json", run), link("2.39", true)], &glibc_docs()).unwrap();
    let a = answer(&m, ADDCHDIR, "linux-glibc").unwrap();
    assert_eq!(a.text, "2.37–2.39", "{a:#?}");
    assert!(a.disagreement, "{a:#?}");
}

#[test]
fn documented_case_rows_form_the_error_section() {
    let r = with_case(
        report("glibc", "2.36", "native"),
        "exec-enoent",
        "libc",
        "returned:ENOENT",
        "pass",
    );
    let r = with_case(r, "exec-enoent", "shared", "returned:ENOENT", "pass");
    let m = merge(&[sourced("r.json", r)], &glibc_docs()).unwrap();
    let s = build(&m);
    let errors: Vec<&str> = s.sections[1].rows.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        errors,
        ["cases.exec-enoent.libc"],
        "only the raw libc, only documented rows"
    );
    let a = answer(&m, "cases.exec-enoent.libc", "linux-glibc").unwrap();
    // The fixture's claim says `from: "2.24"`: the release its source was read at, so only
    // "at most 2.24".
    assert_eq!(a.text, "returned:ENOENT since ≤2.24");
    assert_eq!(crate::matrix::render::summary::letters(&a.evidence), "RD");
}

/// Solaris under a family whose own OS is `solaris` stays that family; an illumos column of
/// the same family becomes a family of its own, never merged into Solaris's releases.
#[test]
fn another_os_of_a_family_is_its_own_summary_family() {
    let yaml = r#"
family: solaris
title: Solaris
description: d
match: { os: [illumos, solaris] }
version_of: os
os: solaris
libc: solaris-libc
doc_columns: ["11.4"]
checked: "2026-11-30"
sources:
  S:
    cite: bminor/glibc@04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:NEWS:10
claims:
  - { row: functions.posix_spawn, since: "10", source: S }
"#;
    let docs = crate::matrix::docs::Docs {
        families: vec![
            Family::parse(std::path::Path::new("targets/solaris/platform.yaml"), yaml).unwrap(),
        ],
    };
    let mut r = with_cap(report("illumos-libc", "1", "native"), "posix_spawn", true);
    r.platform.os = String::from("illumos");
    r.platform.os_version = Some(String::from("2024.10"));
    let m = merge(&[sourced("r.json", r)], &docs).unwrap();
    let s = build(&m);
    let ids: Vec<(&str, &str)> = s
        .families
        .iter()
        .map(|f| (f.id.as_str(), f.title.as_str()))
        .collect();
    assert_eq!(
        ids,
        [("solaris", "Solaris"), ("solaris/illumos", "illumos")]
    );
}
