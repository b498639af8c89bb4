//! Link evidence against facts checked by hand with zig 0.17 (see the machine notes): each row
//! links one probe against one sysroot and compares what linkcheck says.
//!
//! Needs zig (`ci/setup.sh` installs the PyPI package); without it each test skips and
//! says so (`tools`).

mod tools;

use rstest::rstest;
use spawnmatrix::linkcheck::{self, probes, Sysroot};
use tools::zig;

#[rstest]
#[case(
    "x86_64-linux-gnu.2.28",
    "posix_spawn_file_actions_addchdir_np",
    false,
    "declared but not linkable"
)]
#[case(
    "x86_64-linux-gnu.2.29",
    "posix_spawn_file_actions_addchdir_np",
    true,
    "links"
)]
#[case(
    "x86_64-linux-gnu.2.44",
    "posix_spawn_file_actions_addchdir",
    true,
    "header redirect"
)]
#[case(
    "x86_64-macos.10.14",
    "posix_spawn_file_actions_addchdir_np",
    false,
    "only available on macOS 10.15"
)]
#[case(
    "x86_64-macos.10.15",
    "posix_spawn_file_actions_addchdir_np",
    true,
    "links"
)]
#[case(
    "x86_64-freebsd.14.0",
    "posix_spawn_file_actions_addchdir_np",
    true,
    "links"
)]
#[case(
    "x86_64-netbsd.10.1",
    "posix_spawn_file_actions_addchdir_np",
    false,
    "not declared"
)]
#[case(
    "x86_64-linux-musl",
    "posix_spawn_file_actions_addchdir_np",
    true,
    "links"
)]
#[case("x86_64-linux-musl", "POSIX_SPAWN_SETSID", true, "defined as 128")]
fn link_evidence_matches_known_facts(
    #[case] target: &str,
    #[case] name: &str,
    #[case] available: bool,
    #[case] note: &str,
) {
    let Some(zig) = zig() else { return };
    let sysroot = Sysroot::parse(target).unwrap();
    let probe = probes::ALL.iter().find(|p| p.name == name).unwrap();
    let setup = linkcheck::setup(&zig, &sysroot).unwrap();
    let cap = linkcheck::check(&zig, &sysroot, &setup, probe).unwrap();
    assert_eq!(cap.available, available, "{target} {name}: {cap:?}");
    assert_eq!(cap.how, "link");
    let text = cap.note.unwrap_or_default();
    assert!(
        text.contains(note),
        "{target} {name}: note {text:?} lacks {note:?}"
    );
}

/// What only zig's newest headers provide says nothing about an older version: a flag macro,
/// and a POSIX name that glibc 2.44's header maps onto the `_np` symbol.
#[rstest]
#[case("x86_64-linux-gnu.2.17", "POSIX_SPAWN_SETSID")]
#[case("x86_64-linux-gnu.2.29", "posix_spawn_file_actions_addchdir")]
fn newest_header_facts_are_undetermined_for_older_glibc(#[case] target: &str, #[case] name: &str) {
    let Some(zig) = zig() else { return };
    let sysroot = Sysroot::parse(target).unwrap();
    let probe = probes::ALL.iter().find(|p| p.name == name).unwrap();
    let setup = linkcheck::setup(&zig, &sysroot).unwrap();
    let r = linkcheck::check(&zig, &sysroot, &setup, probe);
    assert!(
        matches!(r, Err(linkcheck::Unread::Undetermined(_))),
        "{target} {name}: {r:?}"
    );
}

/// A sysroot against which no executable links gives no column at all: zig's FreeBSD 13.1
/// stubs lack the startup symbol, and a shared object that links says nothing about what a
/// program could resolve (issue 14: 13.1 once showed add(f)chdir_np absent that way).
#[test]
fn a_sysroot_that_cannot_link_an_executable_is_refused() {
    let Some(zig) = zig() else { return };
    let sysroot = Sysroot::parse("x86_64-freebsd.13.1").unwrap();
    let err = linkcheck::setup(&zig, &sysroot).unwrap_err();
    assert!(err.contains("no executable links"), "{err}");
    let outcomes = linkcheck::run(&zig, std::slice::from_ref(&sysroot), 1, &|_| {});
    assert!(
        matches!(&outcomes[..], [(_, linkcheck::Outcome::Skipped(_))]),
        "{outcomes:?}"
    );
}
