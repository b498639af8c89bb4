//! Diff classification and ordering: regressions first.

use rstest::rstest;

use super::*;
use crate::matrix::diff::{diff, has_regressions, render, ChangeKind};
use crate::matrix::merge;
use crate::report::Report;

fn matrix(r: Report) -> crate::matrix::Matrix {
    merge(&[sourced("r.json", r)], &Default::default()).unwrap()
}

fn base() -> Report {
    report("glibc", "2.36", "native")
}

#[rstest]
#[case::became_absent(
    with_cap(base(), "f", true),
    with_cap(base(), "f", false),
    Some(ChangeKind::Regression)
)]
#[case::became_available(
    with_cap(base(), "f", false),
    with_cap(base(), "f", true),
    Some(ChangeKind::Improvement)
)]
#[case::pass_to_fail(
    with_case(base(), "c", "libc", "ok", "pass"),
    with_case(base(), "c", "libc", "ok", "fail"),
    Some(ChangeKind::Regression)
)]
#[case::fail_to_pass(
    with_case(base(), "c", "libc", "add:EBADF", "fail"),
    with_case(base(), "c", "libc", "ok", "pass"),
    Some(ChangeKind::Improvement)
)]
#[case::outcome_changed(
    with_case(base(), "c", "libc", "returned:ENOENT", "pass"),
    with_case(base(), "c", "libc", "child-exit:127", "pass"),
    Some(ChangeKind::Regression)
)]
#[case::unchanged(
    with_case(base(), "c", "libc", "ok", "pass"),
    with_case(base(), "c", "libc", "ok", "pass"),
    None
)]
#[case::added(base(), with_cap(base(), "f", true), Some(ChangeKind::Added))]
#[case::removed(with_cap(base(), "f", true), base(), Some(ChangeKind::Removed))]
fn cells_are_classified(
    #[case] old: Report,
    #[case] new: Report,
    #[case] kind: Option<ChangeKind>,
) {
    let changes = diff(&matrix(old), &matrix(new));
    assert_eq!(
        changes.iter().map(|c| c.kind).collect::<Vec<_>>(),
        kind.into_iter().collect::<Vec<_>>()
    );
    assert_eq!(
        has_regressions(&changes),
        kind == Some(ChangeKind::Regression)
    );
}

#[test]
fn regressions_are_listed_first() {
    let old = with_cap(
        with_cap(with_case(base(), "a", "libc", "ok", "pass"), "z_gone", true),
        "b_new",
        false,
    );
    let new = with_cap(
        with_cap(
            with_case(base(), "a", "libc", "ok", "fail"),
            "z_gone",
            false,
        ),
        "b_new",
        true,
    );
    let new = with_cap(new, "c_added", true);
    let changes = diff(&matrix(old), &matrix(new));
    let kinds: Vec<ChangeKind> = changes.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        [
            ChangeKind::Regression,
            ChangeKind::Regression,
            ChangeKind::Improvement,
            ChangeKind::Added
        ]
    );
    let text = render(&changes);
    assert!(text.starts_with("Regressions (2):\n"), "{text}");
    assert!(text.find("Improvements").unwrap() < text.find("Added").unwrap());
}

#[test]
fn a_new_platform_is_an_added_column_not_a_regression() {
    let old = merge(&[], &Default::default()).unwrap();
    let changes = diff(&old, &matrix(base()));
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].kind, ChangeKind::Added);
    assert_eq!(changes[0].row, None);
}

#[rstest]
#[case(1.00, 1.05, None)]
#[case(1.00, 1.50, Some(ChangeKind::Changed))]
fn perf_changes_are_never_regressions(
    #[case] a: f64,
    #[case] b: f64,
    #[case] kind: Option<ChangeKind>,
) {
    let perf = |ratio| {
        let mut r = base();
        r.perf = Some(crate::report::Perf {
            floor: String::from("vfork"),
            iterations: 10,
            pinned_cpu: None,
            entries: vec![crate::report::PerfEntry {
                strategy: String::from("auto"),
                parent_mib: 0,
                min_us: 1.0,
                median_us: 1.0,
                p90_us: 1.0,
                ratio_to_floor: ratio,
            }],
        });
        r
    };
    let changes = diff(&matrix(perf(a)), &matrix(perf(b)));
    assert_eq!(changes.first().map(|c| c.kind), kind);
}

#[test]
fn two_reports_of_different_keys_compare_as_one_platform() {
    let old = matrix(with_cap(base(), "f", true));
    let mut new = matrix(with_cap(report("glibc", "2.41", "native"), "f", false));
    crate::matrix::diff::align_single_columns(&old, &mut new);
    let changes = diff(&old, &new);
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].kind, ChangeKind::Regression);
}
