//! `spawnmatrix matrix` and `spawnmatrix diff` as a user runs them: files written, errors
//! naming the file, nothing written on failure, and diff's exit status.

use std::path::Path;

#[path = "cli/common.rs"]
mod common;

use common::{bin, copy_dir, report, run, write};

use rstest::rstest;

#[test]
fn matrix_writes_all_three_outputs_with_doc_columns() {
    let tmp = tempfile::tempdir().unwrap();
    let r = write(
        tmp.path(),
        "r.json",
        &report("linux", "2.36", true, "returned:ENOENT"),
    );
    let out = tmp.path().join("out");
    let result = run(bin().arg("matrix").arg(&r).arg("--out").arg(&out));
    assert!(result.status.success());
    let json = std::fs::read_to_string(out.join("matrix.json")).unwrap();
    let m: spawnmatrix::matrix::Matrix = serde_json::from_str(&json).unwrap();
    let live = m
        .columns
        .iter()
        .find(|c| c.platform.libc.version.as_deref() == Some("2.36"))
        .unwrap();
    assert_eq!(live.evidence, spawnmatrix::matrix::Evidence::Run);
    for family in ["macos", "freebsd", "cygwin"] {
        assert!(
            m.columns.iter().any(|c| c.family.as_deref() == Some(family)
                && c.evidence == spawnmatrix::matrix::Evidence::Doc),
            "a doc column for {family}"
        );
    }
    assert!(std::fs::read_to_string(out.join("MATRIX.md"))
        .unwrap()
        .contains("| glibc 2.36 | ✅ run |"));
    assert!(std::fs::read_to_string(out.join("index.html"))
        .unwrap()
        .contains("matrix-data"));
}

#[test]
fn no_docs_leaves_documented_columns_out() {
    let tmp = tempfile::tempdir().unwrap();
    let r = write(tmp.path(), "r.json", &report("linux", "2.36", true, "ok"));
    let out = tmp.path().join("out");
    assert!(run(bin()
        .arg("matrix")
        .arg(&r)
        .arg("--no-docs")
        .arg("--out")
        .arg(&out))
    .status
    .success());
    let m: spawnmatrix::matrix::Matrix =
        serde_json::from_str(&std::fs::read_to_string(out.join("matrix.json")).unwrap()).unwrap();
    assert_eq!(m.columns.len(), 1);
}

#[rstest]
#[case::bad_json("{\n\"schema_version\": 1,\n]", "bad.json:3:")]
#[case::wrong_version(r#"{"schema_version": 7}"#, "schema_version 7 is not supported")]
fn bad_input_names_the_file_and_writes_nothing(#[case] text: &str, #[case] message: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let good = write(
        tmp.path(),
        "good.json",
        &report("linux", "2.36", true, "ok"),
    );
    assert!(run(bin().arg("matrix").arg(&good).arg("--out").arg(&out))
        .status
        .success());
    let before = std::fs::read(out.join("matrix.json")).unwrap();

    let bad = write(tmp.path(), "bad.json", text);
    let result = run(bin()
        .arg("matrix")
        .arg(&good)
        .arg(&bad)
        .arg("--out")
        .arg(&out));
    assert_eq!(result.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains(message), "{stderr}");
    assert_eq!(
        std::fs::read(out.join("matrix.json")).unwrap(),
        before,
        "previous output kept"
    );
}

#[test]
fn the_same_run_twice_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let a = write(tmp.path(), "a.json", &report("linux", "2.36", true, "ok"));
    let b = write(tmp.path(), "b.json", &report("linux", "2.36", true, "ok"));
    let out = tmp.path().join("out");
    let result = run(bin().arg("matrix").arg(&a).arg(&b).arg("--out").arg(&out));
    assert_eq!(result.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&result.stderr).contains("same run"));
    assert!(!out.join("matrix.json").exists());
}

#[rstest]
#[case::no_change(true, "returned:ENOENT", 0, "No changes.")]
#[case::capability_lost(false, "returned:ENOENT", 1, "Regressions (1):")]
#[case::outcome_changed(
    true,
    "child-exit:127",
    1,
    "outcome changed: returned:ENOENT -> child-exit:127"
)]
fn diff_exit_status_says_whether_something_regressed(
    #[case] addchdir: bool,
    #[case] outcome: &str,
    #[case] code: i32,
    #[case] text: &str,
) {
    let tmp = tempfile::tempdir().unwrap();
    let old = write(
        tmp.path(),
        "old.json",
        &report("linux", "2.36", true, "returned:ENOENT"),
    );
    let new = write(
        tmp.path(),
        "new.json",
        &report("linux", "2.41", addchdir, outcome),
    );
    let result = run(bin().arg("diff").arg(&old).arg(&new));
    assert_eq!(result.status.code(), Some(code));
    assert!(String::from_utf8_lossy(&result.stdout).contains(text));
}

#[test]
fn diff_reads_matrices_too() {
    let tmp = tempfile::tempdir().unwrap();
    let old = write(tmp.path(), "old.json", &report("linux", "2.36", true, "ok"));
    let new = write(
        tmp.path(),
        "new.json",
        &report("linux", "2.36", false, "ok").replace("07:00:00Z", "08:00:00Z"),
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    assert!(run(bin()
        .args(["matrix", "--no-docs", "--out"])
        .arg(&a)
        .arg(&old))
    .status
    .success());
    assert!(run(bin()
        .args(["matrix", "--no-docs", "--out"])
        .arg(&b)
        .arg(&new))
    .status
    .success());
    let result = run(bin()
        .arg("diff")
        .arg(a.join("matrix.json"))
        .arg(b.join("matrix.json")));
    assert_eq!(result.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(
        stdout.starts_with(
            "Compared 1 platform column(s).\nRegressions (1):\n  \
             functions.posix_spawn_file_actions_addchdir_np"
        ),
        "{stdout}"
    );
}

#[test]
fn the_main_job_probes_live_and_merges_stored_reports_and_docs() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let result = run(bin().arg("--out").arg(&out));
    assert!(result.status.success());
    // One screen for a person at the terminal; the full matrix is in out/.
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(
        stdout.starts_with("spawnmatrix on this machine: "),
        "{stdout}"
    );
    assert!(stdout.lines().count() <= 40, "more than a screen: {stdout}");
    for says in [
        "\nVerdict: ",
        "\nAgainst the committed table (",
        "index.html    the table to browse: ",
        "MATRIX.md     every cell",
    ] {
        assert!(stdout.contains(says), "no {says:?} in {stdout}");
    }
    let md = std::fs::read_to_string(out.join("MATRIX.md")).unwrap();
    assert!(
        md.starts_with("# spawnmatrix capability matrix"),
        "the full matrix is in out/"
    );
    assert!(out.join("summary.json").is_file());
    let m: spawnmatrix::matrix::Matrix =
        serde_json::from_str(&std::fs::read_to_string(out.join("matrix.json")).unwrap()).unwrap();
    let live: spawnmatrix::report::Report =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let live_column = m
        .column(&live.platform.key())
        .expect("a column for this machine");
    assert_eq!(live_column.evidence, spawnmatrix::matrix::Evidence::Run);
    // The default short bench gives this machine's column its perf rows, at both sizes.
    for size in ["0mib", "256mib"] {
        let perf = m.rows.iter().find(|r| {
            r.id.starts_with("perf.shared:auto.")
                && r.id.ends_with(size)
                && r.cells.contains_key(&live_column.key)
        });
        assert!(
            perf.is_some(),
            "a perf.shared:auto row at {size} for this machine"
        );
    }
    let stored = spawnmatrix::matrix::load::read_report_dir(Path::new("targets/reports")).unwrap();
    for r in &stored {
        assert!(
            m.column(&r.report.platform.key()).is_some(),
            "{} has a column",
            r.origin.display()
        );
    }
    // Every doc cell names its source, in doc columns and where docs fill run/link columns.
    for row in &m.rows {
        for cell in row.cells.values() {
            if cell.evidence == spawnmatrix::matrix::Evidence::Doc {
                assert!(
                    cell.source.is_some(),
                    "{}: a doc cell without source",
                    row.id
                );
            }
        }
    }
    for family in ["macos", "freebsd", "cygwin"] {
        let doc: Vec<_> = m
            .columns
            .iter()
            .filter(|c| {
                c.family.as_deref() == Some(family)
                    && c.evidence == spawnmatrix::matrix::Evidence::Doc
            })
            .collect();
        assert!(!doc.is_empty(), "doc columns for {family}");
        for row in &m.rows {
            for c in &doc {
                if let Some(cell) = row.cells.get(&c.key) {
                    assert!(
                        cell.source.is_some(),
                        "{} on {} names its source",
                        row.id,
                        c.label
                    );
                }
            }
        }
    }
    assert!(out.join("MATRIX.md").is_file() && out.join("index.html").is_file());
}

/// The screen says what this machine's run changes in the committed table: against a
/// committed summary that says glibc's posix_spawn began at 2.3, the live table's 2.2 shows.
#[test]
fn the_main_job_says_what_its_run_changes_in_the_committed_table() {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&root.join("targets"), &tmp.path().join("targets"));
    let committed = std::fs::read_to_string(root.join("docs/summary.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&committed).unwrap();
    let row = doc["sections"][0]["rows"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|r| r["id"] == "functions.posix_spawn")
        .unwrap();
    let glibc = row["answers"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|a| a["family"] == "linux-glibc")
        .unwrap();
    glibc["text"] = "2.3".into();
    write(tmp.path(), "docs/summary.json", &doc.to_string());
    let result = run(bin()
        .arg("--no-bench")
        .arg("--targets")
        .arg(tmp.path().join("targets"))
        .arg("--out")
        .arg(tmp.path().join("out")));
    assert!(result.status.success());
    let stdout = String::from_utf8_lossy(&result.stdout);
    // What else this host's live run adds (a kernel feature the stored runs lacked) depends
    // on the host: only the planted answer is certain.
    assert!(stdout.contains("this machine's run changes "), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("  functions.posix_spawn linux-glibc: 2.3 "))
        .unwrap_or_else(|| panic!("no line for the planted answer in {stdout}"));
    assert!(line.contains(" → 2.2 "), "{line}");
}
