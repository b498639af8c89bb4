//! `spawnmatrix query`: every matching row, answers for a baseline, and the summary built into
//! the binary when there is no checkout to read.

use super::{bin, run};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The answer line of a `--baseline` query: `  TITLE = FAMILY RELEASE: VALUE`.
fn baseline_value(text: &str) -> String {
    text.lines()
        .find(|l| l.starts_with("  ") && l.contains(" = "))
        .and_then(|l| l.rsplit_once(": "))
        .map(|(_, v)| v.to_string())
        .unwrap_or_default()
}

#[rstest::rstest]
// glibc 2.29 added addchdir_np: manylinux2014 (2.17) lacks it, Ubuntu 20.04 (2.31) has it.
#[case("manylinux2014", "no")]
#[case("ubuntu-20.04", "yes")]
#[case("manylinux_2_28", "no")]
// musl has had it since 1.1.24.
#[case("alpine-3.18", "yes")]
#[case("macos-10.15", "yes")]
fn answers_for_a_baseline(#[case] baseline: &str, #[case] want: &str) {
    let out = run(bin().args(["query", "addchdir_np", "--baseline", baseline]));
    assert!(out.status.success());
    assert_eq!(baseline_value(&stdout(&out)), want);
}

#[test]
fn a_baseline_as_json() {
    let out = run(bin().args([
        "query",
        "addchdir_np",
        "--baseline",
        "manylinux2014",
        "--json",
    ]));
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["baseline"]["release"], "2.17");
    assert_eq!(
        v["answers"][0]["row"],
        "functions.posix_spawn_file_actions_addchdir_np"
    );
    assert_eq!(v["answers"][0]["value"], "no");
    assert_eq!(v["answers"][0]["family_answer"]["text"], "2.29");
}

#[test]
fn an_unknown_baseline_is_refused_with_the_known_ones() {
    let out = run(bin().args(["query", "addchdir_np", "--baseline", "windows-95"]));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("manylinux2014"), "{err}");
}

#[test]
fn lists_every_row_it_matches() {
    let out = run(bin().args(["query", "addchdir"]));
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("functions.posix_spawn_file_actions_addchdir\n"),
        "{text}"
    );
    assert!(
        text.contains("functions.posix_spawn_file_actions_addchdir_np\n"),
        "{text}"
    );
}

/// A sandbox row answers per sandbox profile (each a family of its own), and lists no libc
/// family as unknown; a kernel row likewise lists only the kernel family.
#[test]
fn a_sandbox_row_lists_the_sandbox_profiles() {
    let out = run(bin().args(["query", "sandbox.auto"]));
    assert!(out.status.success());
    let text = stdout(&out);
    let row = text.split("\n\n").next().unwrap();
    assert!(row.starts_with("sandbox.auto\n"), "{text}");
    for profile in ["clone3-eperm", "no-clone-vm", "valgrind", "docker-default"] {
        assert!(row.contains(&format!("  {profile} ")), "{profile}: {row}");
    }
    assert!(
        !row.contains("  glibc "),
        "no libc family on a sandbox row: {row}"
    );
}

/// Outside any checkout (no `conformance/` and `targets/` above the current directory), the
/// binary answers from the summary it embeds, and says so; `--targets` still overrides.
#[test]
fn answers_outside_a_checkout() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(bin().current_dir(tmp.path()).args([
        "query",
        "addchdir_np",
        "--baseline",
        "manylinux2014",
    ]));
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(baseline_value(&text), "no");
    assert!(
        text.contains("the summary built into this binary"),
        "{text}"
    );
    let out = run(bin().current_dir(tmp.path()).args([
        "query",
        "addchdir_np",
        "--targets",
        tmp.path().to_str().unwrap(),
    ]));
    assert_eq!(
        out.status.code(),
        Some(2),
        "an empty --targets is refused, not skipped"
    );
}
