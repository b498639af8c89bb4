//! Evidence precedence, disagreement flagging and column building.

use rstest::rstest;

use super::*;
use crate::matrix::model::{Evidence, Matrix, Value};
use crate::matrix::{merge, MatrixError};

const ADDCHDIR: &str = "posix_spawn_file_actions_addchdir_np";
const ADDCHDIR_ROW: &str = "functions.posix_spawn_file_actions_addchdir_np";

fn cell<'a>(m: &'a Matrix, row: &str, label: &str) -> Option<&'a crate::matrix::Cell> {
    let key = &m.columns.iter().find(|c| c.label == label)?.key;
    m.row(row)?.cells.get(key)
}

#[rstest]
#[case::run_agrees("native", "2.36", true, Evidence::Run, false)]
#[case::run_disagrees("native", "2.36", false, Evidence::Run, true)]
#[case::link_agrees("link", "2.28", false, Evidence::Link, false)]
#[case::link_disagrees("link", "2.28", true, Evidence::Link, true)]
#[case::container_is_run("container", "2.31", true, Evidence::Run, false)]
#[case::emulated_is_run("emulated", "2.36", true, Evidence::Run, false)]
fn observed_value_wins_over_doc_and_disagreement_shows(
    #[case] kind: &str,
    #[case] version: &str,
    #[case] observed: bool,
    #[case] evidence: Evidence,
    #[case] flagged: bool,
) {
    let r = with_cap(report("glibc", version, kind), ADDCHDIR, observed);
    let m = merge(&[sourced("r.json", r)], &glibc_docs()).unwrap();
    let col = m.columns.iter().find(|c| c.evidence == evidence).unwrap();
    let cell = &m.row(ADDCHDIR_ROW).unwrap().cells[&col.key];
    assert_eq!(cell.value, Value::Bool(observed));
    assert_eq!(cell.evidence, evidence);
    let documented = crate::matrix::version::Version::parse(version)
        >= crate::matrix::version::Version::parse("2.29");
    assert_eq!(
        cell.doc.as_ref().map(|d| d.value.clone()),
        Some(Value::Bool(documented))
    );
    assert_eq!(!cell.conflicts.is_empty(), flagged);
    if flagged {
        assert_eq!(cell.conflicts[0].evidence, Evidence::Doc);
        assert_eq!(cell.conflicts[0].value, Value::Bool(!observed));
        assert_eq!(m.disagreements().count(), 1);
    }
}

#[test]
fn doc_fills_rows_nothing_observed_and_says_so() {
    let r = with_cap(report("glibc", "2.36", "native"), "posix_spawn", true);
    let m = merge(&[sourced("r.json", r)], &glibc_docs()).unwrap();
    let cell = cell(&m, "cases.exec-enoent.libc", "glibc 2.36").unwrap();
    assert_eq!(cell.evidence, Evidence::Doc);
    assert_eq!(cell.value, Value::Text(String::from("returned:ENOENT")));
    assert_eq!(cell.source.as_deref(), Some("GL-NEWS: the NEWS file (bminor/glibc@04e750e75b1cc79ad9a3d4d4b1d8e44b4a73b2a4:NEWS:10)"));
    assert_eq!(cell.note.as_deref(), Some("reaped internally"));
}

#[rstest]
#[case("2.28", false)]
#[case("2.29", true)]
fn doc_columns_evaluate_ranges(#[case] version: &str, #[case] expected: bool) {
    let m = merge(&[], &glibc_docs()).unwrap();
    let label = format!("glibc {version}");
    let cell = cell(&m, ADDCHDIR_ROW, &label).unwrap();
    assert_eq!(cell.value, Value::Bool(expected));
    assert_eq!(cell.evidence, Evidence::Doc);
    assert!(cell.source.is_some());
}

#[test]
fn reports_for_one_platform_share_a_column_and_disagreements_are_flagged() {
    let old = with_cap(report("musl", "1.2.3", "native"), ADDCHDIR, true);
    let mut new = with_cap(report("musl", "1.2.3", "native"), ADDCHDIR, false);
    new.generated_at = String::from("2026-11-30T08:00:00Z");
    let new = with_cap(new, "posix_spawn", true);
    let m = merge(
        &[sourced("old.json", old), sourced("new.json", new)],
        &Default::default(),
    )
    .unwrap();
    assert_eq!(m.columns.len(), 1);
    assert_eq!(m.columns[0].origins, ["new.json", "old.json"]);
    let cell = &m.row(ADDCHDIR_ROW).unwrap().cells[&m.columns[0].key];
    assert_eq!(cell.value, Value::Bool(false), "the newest report wins");
    assert_eq!(cell.conflicts.len(), 1);
    assert_eq!(cell.conflicts[0].origin, "old.json");
    assert!(m
        .disagreements()
        .next()
        .unwrap()
        .describe()
        .contains("old.json"));
}

#[test]
fn the_same_run_twice_is_an_error() {
    let r = report("musl", "1.2.3", "native");
    let err = merge(
        &[sourced("a.json", r.clone()), sourced("b.json", r)],
        &Default::default(),
    )
    .unwrap_err();
    assert!(matches!(err, MatrixError::DuplicateReport { .. }), "{err}");
    assert!(err.to_string().contains("a.json") && err.to_string().contains("b.json"));
}

#[test]
fn unknown_provenance_is_an_error() {
    let r = report("musl", "1.2.3", "guess");
    let err = merge(&[sourced("a.json", r)], &Default::default()).unwrap_err();
    assert!(
        matches!(err, MatrixError::UnknownProvenance { .. }),
        "{err}"
    );
}

/// Columns sit by family, then release compared as numbers (2.9 before 2.17), then evidence,
/// so the columns of one release are neighbours.
#[test]
fn columns_are_ordered_by_release_numerically_then_evidence_and_labels_are_unique() {
    let reports = [
        sourced("l.json", report("glibc", "2.17", "link")),
        sourced("n.json", report("glibc", "2.36", "native")),
        sourced("c.json", report("glibc", "2.36", "container")),
        sourced("o.json", report("glibc", "2.9", "link")),
        sourced("d.json", report("glibc", "2.29", "link")),
    ];
    let m = merge(&reports, &glibc_docs()).unwrap();
    let order: Vec<(String, Evidence)> = m
        .columns
        .iter()
        .map(|c| (c.platform.libc.version.clone().unwrap(), c.evidence))
        .collect();
    let expected = [
        ("2.9", Evidence::Link),
        ("2.17", Evidence::Link),
        ("2.28", Evidence::Doc),
        ("2.29", Evidence::Link),
        ("2.29", Evidence::Doc),
        ("2.36", Evidence::Run),
        ("2.36", Evidence::Run),
    ];
    let expected: Vec<(String, Evidence)> =
        expected.iter().map(|(v, e)| (v.to_string(), *e)).collect();
    assert_eq!(order, expected);
    let mut labels: Vec<&str> = m.columns.iter().map(|c| c.label.as_str()).collect();
    labels.sort_unstable();
    labels.dedup();
    assert_eq!(labels.len(), m.columns.len());
}

#[test]
fn rows_are_grouped_in_table_order() {
    let r = with_case(
        with_cap(
            with_cap(
                report("glibc", "2.36", "native"),
                "POSIX_SPAWN_SETSID",
                true,
            ),
            "posix_spawn",
            true,
        ),
        "exec-enoent",
        "shared",
        "returned:ENOENT",
        "pass",
    );
    let m = merge(&[sourced("r.json", r)], &Default::default()).unwrap();
    let groups: Vec<&str> = m.groups.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(groups, ["functions", "flags", "cases.exec"]);
    let rows: Vec<&str> = m.rows.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        rows,
        [
            "functions.posix_spawn",
            "flags.POSIX_SPAWN_SETSID",
            "cases.exec-enoent.shared"
        ]
    );
}

#[test]
fn a_link_column_with_a_doc_columns_label_says_link_and_doc() {
    let m = merge(
        &[sourced("l.json", report("glibc", "2.29", "link"))],
        &glibc_docs(),
    )
    .unwrap();
    let labels: Vec<&str> = m.columns.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        ["glibc 2.28", "glibc 2.29 (link)", "glibc 2.29 (doc)"]
    );
}
