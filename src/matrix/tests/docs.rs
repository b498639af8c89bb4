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
#[case::since_with_value(
    "since: \"2.29\"\n",
    "since: \"2.29\"\n    value: false\n",
    "since stands alone"
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
