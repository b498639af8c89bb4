//! platform.yaml: parsing, checks and range evaluation.

use std::path::Path;

use rstest::rstest;

use super::*;
use crate::matrix::model::Value;
use crate::matrix::version::{Release, Version};
use crate::matrix::MatrixError;

fn parse(text: &str) -> Result<Family, MatrixError> {
    Family::parse(Path::new("targets/x/platform.yaml"), text)
}

#[rstest]
#[case("2.17", Some(false))]
#[case("2.28", Some(false))]
#[case("2.29", Some(true))]
#[case("2.42", Some(true))]
fn since_means_present_from_and_absent_before(#[case] v: &str, #[case] expected: Option<bool>) {
    let f = parse(GLIBC_YAML).unwrap();
    let claim = f.claim(
        "functions.posix_spawn_file_actions_addchdir_np",
        &Release::Exact(Version::parse(v).unwrap()),
    );
    assert_eq!(claim.map(|c| c.value), expected.map(Value::Bool));
}

#[test]
fn from_without_before_is_open_ended_and_before_its_start_is_unknown() {
    let f = parse(GLIBC_YAML).unwrap();
    let at = |v| f.claim("cases.exec-enoent.libc", &Release::parse(v).unwrap());
    assert!(at("2.23").is_none());
    assert_eq!(
        at("2.40").unwrap().value,
        Value::Text(String::from("returned:ENOENT"))
    );
}

#[rstest]
#[case::unknown_source("source: GL-NEWS\n", "source: NOPE\n", "not listed under sources")]
#[case::bad_row(
    "row: functions.posix_spawn_file",
    "row: fns.posix_spawn_file",
    "row must start"
)]
#[case::bad_version("since: \"2.29\"", "since: \"two\"", "not a release number")]
#[case::since_with_from(
    "since: \"2.29\"\n",
    "since: \"2.29\"\n    from: \"2.28\"\n",
    "since or from, not both"
)]
#[case::state_with_value(
    "value: returned:ENOENT\n",
    "value: returned:ENOENT\n    state: deprecated\n",
    "a state claim has no value"
)]
#[case::needs_without_condition(
    "value: returned:ENOENT\n",
    "state: needs\n",
    "state needs names its condition"
)]
#[case::bug_without_note(
    "value: returned:ENOENT\n    from: \"2.24\"\n    source: GL-NEWS\n    note: reaped internally\n",
    "state: known-bug\n    from: \"2.24\"\n    source: GL-NEWS\n",
    "a known-bug says what it is"
)]
fn inconsistent_claims_are_errors(#[case] from: &str, #[case] to: &str, #[case] message: &str) {
    let text = GLIBC_YAML.replacen(from, to, 1);
    assert_ne!(text, GLIBC_YAML, "the fixture changed");
    let err = parse(&text).unwrap_err();
    assert!(matches!(err, MatrixError::Claims { .. }), "{err}");
    assert!(err.to_string().contains(message), "{err}");
    assert!(
        err.to_string().starts_with("targets/x/platform.yaml:"),
        "{err}"
    );
}

/// Every claim names a machine-checkable source, and the family says when it was checked.
#[rstest]
#[case::free_text_source(
    "    cite: bminor/glibc@04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:NEWS:10\n",
    "    cite: bminor/glibc NEWS @ 04e750e7\n",
    "not a citation"
)]
#[case::short_commit(
    "04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:NEWS",
    "04e750e7:NEWS",
    "40 hex"
)]
#[case::no_line(":NEWS:10\n", ":NEWS\n", "LINE")]
#[case::empty_list(
    "    cite: bminor/glibc@04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:NEWS:10\n",
    "    cite: []\n",
    "no citation"
)]
#[case::checked_not_a_date("checked: \"2026-11-30\"", "checked: \"last week\"", "YYYY-MM-DD")]
#[case::checked_impossible("checked: \"2026-11-30\"", "checked: \"2026-02-30\"", "not a date")]
#[case::checked_in_future("checked: \"2026-11-30\"", "checked: \"2999-01-01\"", "after today")]
#[case::case_value_not_an_outcome(
    "value: returned:ENOENT",
    "value: returned-ENOENT",
    "not an outcome"
)]
#[case::function_value_not_bool(
    "since: \"2.29\"\n",
    "value: ignored\n    from: \"2.29\"\n",
    "does not fit"
)]
fn unsourced_or_unchecked_claims_are_errors(
    #[case] from: &str,
    #[case] to: &str,
    #[case] message: &str,
) {
    let text = GLIBC_YAML.replacen(from, to, 1);
    assert_ne!(text, GLIBC_YAML, "the fixture changed");
    let err = parse(&text).unwrap_err();
    assert!(err.to_string().contains(message), "{err}");
}

#[test]
fn a_family_without_checked_or_a_claim_without_source_does_not_load() {
    let no_checked = GLIBC_YAML.replacen("checked: \"2026-11-30\"\n", "", 1);
    assert!(matches!(parse(&no_checked), Err(MatrixError::Yaml(_))));
    let no_source = GLIBC_YAML.replacen("    source: GL-NEWS\n", "", 1);
    assert!(matches!(parse(&no_source), Err(MatrixError::Yaml(_))));
}

#[test]
fn a_flag_may_be_accepted_and_ignored() {
    let text = format!(
        "{GLIBC_YAML}  - row: flags.POSIX_SPAWN_SETSCHEDULER\n    value: ignored\n    from: \"2.2\"\n    source: GL-NEWS\n"
    );
    let f = parse(&text).unwrap();
    let claim = f
        .claim(
            "flags.POSIX_SPAWN_SETSCHEDULER",
            &Release::parse("2.30").unwrap(),
        )
        .unwrap();
    assert_eq!(claim.value, Value::Text("ignored".into()));
    assert!(claim.value.agrees_with(&Value::Bool(true)));
    assert!(!claim.value.agrees_with(&Value::Bool(false)));
}

#[test]
fn overlapping_claims_with_different_values_are_errors() {
    let text = format!(
        "{GLIBC_YAML}  - row: functions.posix_spawn_file_actions_addchdir_np\n    value: false\n    from: \"2.30\"\n    before: \"2.31\"\n    source: GL-NEWS\n"
    );
    let err = parse(&text).unwrap_err();
    assert!(err.to_string().contains("overlap"), "{err}");
}

#[rstest]
#[case::open_ended_claim_applies("cases.exec-enoent.libc", Some("returned:ENOENT"))]
#[case::bounded_claim_does_not("functions.posix_spawn_file_actions_addchdir_np", None)]
fn a_lower_bound_release_gets_only_open_ended_claims(
    #[case] row: &str,
    #[case] value: Option<&str>,
) {
    let f = parse(GLIBC_YAML).unwrap();
    let claim = f.claim(row, &Release::parse(">=2.28").unwrap());
    assert_eq!(
        claim.map(|c| c.value),
        value.map(|v| Value::Text(v.to_string()))
    );
}

#[test]
fn yaml_errors_name_file_and_line() {
    let text = GLIBC_YAML.replacen("version_of: libc", "version_of: libc\nunknown_key: 1", 1);
    let err = parse(&text).unwrap_err();
    match err {
        MatrixError::Yaml(e) => {
            assert_eq!(e.file, "targets/x/platform.yaml");
            assert_eq!(e.line, 7);
        }
        other => panic!("expected a YAML error, got {other}"),
    }
}

#[test]
fn families_match_reports_by_os_and_libc() {
    let docs = glibc_docs();
    assert!(docs
        .family_of(&report("glibc", "2.36", "native").platform)
        .is_some());
    assert!(docs
        .family_of(&report("musl", "1.2.3", "native").platform)
        .is_none());
}

/// Every family in the repository says when it was checked, and every source cites at least
/// one place a program can open.
#[test]
fn every_repository_family_is_dated_and_cited() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let docs = Docs::load(&targets).unwrap();
    assert!(docs.families.len() >= 9);
    for f in &docs.families {
        assert!(!f.spec.checked.is_empty());
        for key in f.spec.sources.keys() {
            assert!(
                f.citations().any(|(k, _)| k == key),
                "{}: {key} cites nothing",
                f.file.display()
            );
        }
    }
}

#[test]
fn the_repository_platform_files_load() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let docs = Docs::load(&targets).unwrap();
    for family in ["macos", "freebsd", "cygwin"] {
        let f = docs
            .families
            .iter()
            .find(|f| f.spec.family == family)
            .unwrap();
        assert!(!f.spec.doc_columns.is_empty(), "{family} has doc columns");
        assert!(!f.rows().is_empty(), "{family} has claims");
    }
}

#[test]
fn repository_claims_name_existing_cases_and_subjects() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let docs = Docs::load(&targets).unwrap();
    let cases = crate::matrix::cases::CaseIndex::load_default().unwrap();
    let mut checked = 0;
    for family in &docs.families {
        for row in family.rows() {
            let Some(case) = crate::matrix::rows::case_of(row) else {
                continue;
            };
            assert!(
                cases.title(case).is_some(),
                "{}: unknown case in {row}",
                family.file.display()
            );
            let subject = row.rsplit('.').next().unwrap();
            assert!(
                ["libc", "shared", "std"].contains(&subject),
                "{row}: unknown subject"
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
}
