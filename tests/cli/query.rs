//! `spawnmatrix query`: every matching row, answers for a baseline, and the summary built into
//! the binary when there is no checkout to read.

use super::{bin, run};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The answer line of a `--baseline` query: `  TITLE = FAMILY RELEASE: WORKS?` (whether the
/// call works there: `yes`, `no`, `no: a stub, every call fails with ENOSYS`).
fn baseline_works(text: &str) -> String {
    text.lines()
        .find(|l| l.starts_with("  ") && !l.starts_with("   ") && l.contains(" = "))
        .and_then(|l| l.split_once(" = "))
        .and_then(|(_, rest)| rest.split_once(": "))
        .map(|(_, v)| v.to_string())
        .unwrap_or_default()
}

/// The table's own value for the baseline, states kept: `    baseline cell: VALUE; WHY`.
fn baseline_cell(text: &str) -> String {
    text.lines()
        .find_map(|l| l.trim_start().strip_prefix("baseline cell: "))
        .and_then(|l| l.split_once("; "))
        .map(|(v, _)| v.to_string())
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
    // Whether it works first (a yes may carry a condition: `yes, if ...`); the table's value
    // on its own line, where a `yes` may carry the cell's states (`yes · known bug`).
    let text = stdout(&out);
    let works = baseline_works(&text);
    assert!(
        works == want || works.starts_with(&format!("{want},")),
        "{text}"
    );
    let cell = baseline_cell(&text);
    assert_eq!(cell.split(" · ").next(), Some(want), "{text}");
}

/// A baseline's `yes` keeps the cell's states: musl's sched setters are stubs (every call
/// fails with ENOSYS), so Alpine 3.19 never reads a bare "yes" for them, and the answer says
/// the call will not work, with the source.
#[test]
fn a_baseline_answer_keeps_the_cells_states() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(bin().current_dir(tmp.path()).args([
        "query",
        "--baseline",
        "alpine-3.19",
        "setschedparam",
    ]));
    assert!(out.status.success());
    let text = stdout(&out);
    let block = text.split("flags.").next().unwrap_or_default().to_string();
    assert_eq!(
        baseline_works(&block),
        "no: a stub, every call fails with ENOSYS",
        "{text}"
    );
    assert_eq!(baseline_cell(&block), "yes · stub (ENOSYS)", "{text}");
    assert!(block.contains("present from 0.9.8 on"), "{text}");
    assert!(block.contains("source: MUSL-SCHED"), "{text}");
}

/// As a new user would ask, from outside any checkout: each family's line says first whether
/// the call works there.
#[rstest::rstest]
#[case("setschedparam", "musl", "no: a stub, every call fails with ENOSYS")]
#[case("setschedparam", "glibc", "yes")]
#[case("setschedparam", "macOS", "no")]
#[case(
    "addfchdir",
    "glibc",
    "yes, in a direct call only (dlsym finds nothing)"
)]
fn a_query_says_whether_the_call_works(
    #[case] text: &str,
    #[case] family: &str,
    #[case] works: &str,
) {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(bin().current_dir(tmp.path()).args(["query", text]));
    assert!(out.status.success());
    let first = stdout(&out);
    let first = first.split("\n\n").next().unwrap_or_default();
    let line = first
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{family} ")))
        .unwrap_or_else(|| panic!("no {family} line in {first}"));
    let verdict = line.trim_start()[family.len()..].trim_start();
    assert!(verdict.starts_with(works), "{line}");
    assert!(first.contains("works?"), "{first}");
}

/// A `?` cell says why nothing is known, in text and JSON: Solaris's function list and error
/// semantics cannot be read from here (its platform.yaml's `unread`).
#[rstest::rstest]
#[case("addinherit", "functions.posix_spawn_file_actions_addinherit_np")]
#[case("exec-enoent", "cases.exec-enoent.libc")]
fn a_question_mark_says_why_nothing_is_known(#[case] text: &str, #[case] row: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(bin().current_dir(tmp.path()).args(["query", text]));
    assert!(out.status.success());
    let text_out = stdout(&out);
    let line = text_out
        .lines()
        .find(|l| l.trim_start().starts_with("Solaris "))
        .unwrap_or_else(|| panic!("no Solaris line in {text_out}"));
    assert!(
        line.contains("?  not read here: Solaris 11 is closed source"),
        "{line}"
    );
    let out = run(bin()
        .current_dir(tmp.path())
        .args(["query", "--json", text]));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let unread = v["unread"].as_array().unwrap();
    assert!(
        unread.iter().any(|u| u["family"] == "solaris"
            && u["row"] == row
            && u["why"].as_str().unwrap().starts_with("not read here: ")),
        "{unread:?}"
    );
}

/// A first release that stays a range says why the history cannot settle it, under the
/// boundary in text and in JSON's `unsettled` (OpenBSD's platform.yaml).
#[test]
fn a_range_says_why_it_is_not_settled() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(bin().current_dir(tmp.path()).args(["query", "SETSIGMASK"]));
    assert!(out.status.success());
    let text = stdout(&out);
    let mut lines = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("OpenBSD "));
    let answer = lines
        .next()
        .unwrap_or_else(|| panic!("no OpenBSD line in {text}"));
    assert!(answer.contains("5.2–5.7"), "{answer}");
    assert!(
        lines
            .next()
            .is_some_and(|l| l.contains("boundary: interval")),
        "{text}"
    );
    let why = lines.next().unwrap_or_default();
    assert!(why.trim_start().starts_with("not settled here: "), "{text}");
    let out = run(bin()
        .current_dir(tmp.path())
        .args(["query", "--json", "SETSIGMASK"]));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let unsettled = v["unsettled"].as_array().unwrap();
    assert!(
        unsettled.iter().any(|u| u["family"] == "openbsd"
            && u["since"] == "5.2–5.7"
            && u["why"].as_str().unwrap().starts_with("not settled here: ")),
        "{unsettled:?}"
    );
}

/// A closed stdout (`| head -1`) ends the command quietly, with success: no panic message.
#[rstest::rstest]
#[case(&["query", "--json", "setsid"])]
#[case(&["query", "setsid"])]
#[case(&["query"])]
#[case(&["query", "--baseline", "debian-12", "--json"])]
#[case(&["publish", "--check"])]
fn a_closed_stdout_ends_quietly(#[case] args: &[&str]) {
    let mut child = bin()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before the command writes: every write fails with EPIPE.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
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
    assert_eq!(baseline_works(&text), "no");
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
    // The repository's targets/ from outside it: its conformance cases are found beside it.
    let targets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let out = run(bin().current_dir(tmp.path()).args([
        "query",
        "exec-enoent",
        "--targets",
        targets.to_str().unwrap(),
    ]));
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("cases.exec-enoent.libc\n"), "{text}");
    assert!(
        text.contains(&format!("Data: {}.", targets.display())),
        "{text}"
    );
}
