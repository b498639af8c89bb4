//! Diff classification and ordering: regressions first.

use rstest::rstest;

use super::*;
use crate::matrix::diff::{diff, render, ChangeKind};
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
#[case::now_supported(
    with_case(base(), "c", "libc", "unsupported", "pass"),
    with_case(base(), "c", "libc", "ok", "pass"),
    Some(ChangeKind::Improvement)
)]
#[case::no_longer_supported(
    with_case(base(), "c", "libc", "ok", "pass"),
    with_case(base(), "c", "libc", "unsupported", "pass"),
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
    let d = diff(&matrix(old), &matrix(new));
    assert_eq!(
        d.changes.iter().map(|c| c.kind).collect::<Vec<_>>(),
        kind.into_iter().collect::<Vec<_>>()
    );
    assert_eq!(
        d.regressions(),
        usize::from(kind == Some(ChangeKind::Regression))
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
    let d = diff(&matrix(old), &matrix(new));
    let kinds: Vec<ChangeKind> = d.changes.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        [
            ChangeKind::Regression,
            ChangeKind::Regression,
            ChangeKind::Improvement,
            ChangeKind::Added
        ]
    );
    let text = render(&d);
    assert!(
        text.starts_with("Compared 1 platform column(s).\nRegressions (2):\n"),
        "{text}"
    );
    assert!(text.find("Improvements").unwrap() < text.find("Added").unwrap());
}

#[test]
fn a_new_platform_is_an_added_column_not_a_regression() {
    let old = merge(&[], &Default::default()).unwrap();
    let d = diff(&old, &matrix(base()));
    assert_eq!(d.compared, []);
    assert_eq!(d.changes.len(), 1);
    assert_eq!(d.changes[0].kind, ChangeKind::Added);
    assert_eq!(d.changes[0].row, None);
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
                shape: Default::default(),
                min_us: 1.0,
                median_us: 1.0,
                p90_us: 1.0,
                ratio_to_floor: ratio,
            }],
        });
        r
    };
    let d = diff(&matrix(perf(a)), &matrix(perf(b)));
    assert_eq!(d.changes.first().map(|c| c.kind), kind);
}

/// One platform under two keys (a libc upgrade) is compared; another OS, architecture,
/// libc or evidence level never is.
#[rstest]
#[case::libc_upgrade(report("glibc", "2.41", "native"), true)]
#[case::container_is_run_too(report("glibc", "2.31", "container"), true)]
#[case::other_libc(report("musl", "1.2.5", "native"), false)]
#[case::link_evidence(report("glibc", "2.36", "link"), false)]
#[case::other_os({ let mut r = base(); r.platform.os = "macos".into(); r }, false)]
#[case::other_arch({ let mut r = base(); r.platform.arch = "aarch64".into(); r }, false)]
fn only_the_same_platform_is_compared(#[case] other: Report, #[case] compared: bool) {
    let old = matrix(with_cap(base(), "f", true));
    let new = matrix(with_cap(other, "f", false));
    let d = diff(&old, &new);
    assert_eq!(d.compared.len(), usize::from(compared), "{d:?}");
    let kinds: Vec<ChangeKind> = d.changes.iter().map(|c| c.kind).collect();
    match compared {
        true => assert_eq!(kinds, [ChangeKind::Regression]),
        false => assert_eq!(kinds, [ChangeKind::Added, ChangeKind::Removed]),
    }
}

/// Two columns of one identity on a side are ambiguous: none of them is paired by identity.
#[test]
fn an_ambiguous_identity_is_not_paired() {
    let old = matrix(with_cap(base(), "f", true));
    let new = merge(
        &[
            sourced(
                "a.json",
                with_cap(report("glibc", "2.41", "native"), "f", false),
            ),
            sourced(
                "b.json",
                with_cap(report("glibc", "2.43", "native"), "f", false),
            ),
        ],
        &Default::default(),
    )
    .unwrap();
    assert_eq!(diff(&old, &new).compared, []);
}
