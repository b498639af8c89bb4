//! Reports: a wrong schema version, truncated JSON, duplicate keys, the same run twice. Each
//! is a `MatrixError` naming the file (and line and column for JSON).

use std::path::Path;

use rstest::rstest;
use spawnmatrix::matrix::error::MatrixError;
use spawnmatrix::matrix::load::{parse_report, read_report_dir};

/// The report every variant starts from: one stored in the repository.
fn stored() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets/reports");
    let first = std::fs::read_dir(&dir)
        .expect("targets/reports")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .expect("a stored report");
    std::fs::read_to_string(first).unwrap()
}

#[test]
fn the_stored_report_parses() {
    parse_report(Path::new("stored.json"), &stored()).expect("base report of these tests");
}

#[test]
fn a_wrong_schema_version_is_named() {
    let text = stored().replacen("\"schema_version\": 1", "\"schema_version\": 99", 1);
    let err = parse_report(Path::new("r.json"), &text).expect_err("schema 99 was accepted");
    assert!(
        matches!(&err, MatrixError::SchemaVersion { found, .. } if found == "99"),
        "{err}"
    );
    assert!(err.to_string().starts_with("r.json"), "{err}");
}

#[rstest]
#[case::half(2)]
#[case::nearly_all(20)]
fn truncated_json_names_file_line_and_column(#[case] keep_of_twenty: usize) {
    let full = stored();
    let text = &full[..full.len() * keep_of_twenty.min(19) / 20];
    let err = parse_report(Path::new("cut.json"), text).expect_err("truncated JSON was accepted");
    match &err {
        MatrixError::Json { line, column, .. } => assert!(*line > 0 && *column > 0, "{err}"),
        other => panic!("truncated JSON gave {other}"),
    }
    assert!(err.to_string().starts_with("cut.json:"), "{err}");
}

#[test]
fn a_duplicate_platform_field_is_an_error() {
    let text = stored().replacen(
        "\"platform\": {",
        "\"platform\": {\n    \"os\": \"linux\",",
        1,
    );
    let err = parse_report(Path::new("dup.json"), &text).expect_err("a duplicate key was accepted");
    assert!(err.to_string().contains("duplicate field"), "{err}");
}

#[test]
fn the_same_run_stored_twice_names_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let text = stored();
    std::fs::write(dir.path().join("a.json"), &text).unwrap();
    std::fs::write(dir.path().join("b.json"), &text).unwrap();
    let reports = read_report_dir(dir.path()).unwrap();
    let docs = spawnmatrix::matrix::docs::Docs::default();
    let err = spawnmatrix::matrix::merge::merge(&reports, &docs)
        .expect_err("the same run twice was merged");
    assert!(matches!(err, MatrixError::DuplicateReport { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("a.json") && msg.contains("b.json"), "{msg}");
}

#[test]
fn a_duplicate_capability_key_is_an_error() {
    let text = stored().replacen(
        "\"capabilities\": {",
        "\"capabilities\": {\n    \"posix_spawn\": {\"available\": false, \"how\": \"dlsym\"},\n    \"posix_spawn\": {\"available\": true, \"how\": \"dlsym\"},",
        1,
    );
    let err = parse_report(Path::new("dup.json"), &text);
    assert!(
        err.is_err(),
        "a capability listed twice was accepted (the last one won)"
    );
}
