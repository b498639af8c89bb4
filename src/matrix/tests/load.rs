//! Malformed input: every error names the file, and JSON errors the line.

use std::path::Path;

use rstest::rstest;

use super::*;
use crate::matrix::load::{parse_matrix, parse_report};
use crate::matrix::MatrixError;

fn report_json() -> serde_json::Value {
    serde_json::to_value(with_cap(
        report("glibc", "2.36", "native"),
        "posix_spawn",
        true,
    ))
    .unwrap()
}

#[test]
fn a_good_report_parses() {
    let text = serde_json::to_string_pretty(&report_json()).unwrap();
    let r = parse_report(Path::new("good.json"), &text).unwrap();
    assert_eq!(r.report.platform.libc.name, "glibc");
}

#[rstest]
#[case::not_json("{\n  \"schema_version\": 1,\n  oops\n}", 3)]
#[case::truncated("{\n  \"schema_version\": 1,\n", 3)]
fn syntax_errors_name_file_and_line(#[case] text: &str, #[case] line: usize) {
    let err = parse_report(Path::new("bad.json"), text).unwrap_err();
    match &err {
        MatrixError::Json { path, line: l, .. } => {
            assert_eq!(path, Path::new("bad.json"));
            assert_eq!(*l, line);
        }
        other => panic!("expected a JSON error, got {other}"),
    }
    assert!(
        err.to_string().starts_with(&format!("bad.json:{line}:")),
        "{err}"
    );
}

#[rstest]
#[case::unknown_field("/platform/arhc", serde_json::json!("x86_64"))]
#[case::wrong_type("/capabilities/posix_spawn/available", serde_json::json!("yes"))]
fn shape_errors_name_file_and_line(#[case] pointer: &str, #[case] value: serde_json::Value) {
    let mut json = report_json();
    let (parent, leaf) = pointer.rsplit_once('/').unwrap();
    json.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .insert(leaf.to_string(), value);
    let text = serde_json::to_string_pretty(&json).unwrap();
    let err = parse_report(Path::new("shape.json"), &text).unwrap_err();
    assert!(
        matches!(err, MatrixError::Json { line, .. } if line > 1),
        "{err}"
    );
    assert!(err.to_string().starts_with("shape.json:"), "{err}");
}

#[rstest]
#[case(serde_json::json!(2), "2")]
#[case(serde_json::json!("1"), "\"1\"")]
#[case(serde_json::Value::Null, "null")]
fn wrong_schema_version_is_its_own_error(#[case] version: serde_json::Value, #[case] shown: &str) {
    let mut json = report_json();
    json["schema_version"] = version;
    json["a_field_from_the_future"] = serde_json::json!(true);
    let err = parse_report(Path::new("v.json"), &json.to_string()).unwrap_err();
    match err {
        MatrixError::SchemaVersion {
            found, expected, ..
        } => {
            assert_eq!(found, shown);
            assert_eq!(expected, 1);
        }
        other => panic!("expected a schema version error, got {other}"),
    }
}

#[test]
fn a_doc_report_needs_sources() {
    let mut json = report_json();
    json["platform"]["provenance"]["kind"] = serde_json::json!("doc");
    let err = parse_report(Path::new("d.json"), &json.to_string()).unwrap_err();
    assert!(
        matches!(err, MatrixError::DocWithoutSource { ref name, .. } if name == "posix_spawn"),
        "{err}"
    );
}

#[test]
fn a_matrix_checks_its_schema_version() {
    let err = parse_matrix(
        Path::new("m.json"),
        r#"{"schema_version": 9, "columns": []}"#,
    )
    .unwrap_err();
    assert!(matches!(err, MatrixError::SchemaVersion { .. }), "{err}");
}

#[test]
fn a_missing_report_folder_gives_no_reports() {
    let reports = crate::matrix::load::read_report_dir(Path::new("/nonexistent/reports")).unwrap();
    assert!(reports.is_empty());
}
