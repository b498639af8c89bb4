//! `spawnmatrix diff` compares only the same platform, says which columns it compared, and
//! has `--json`.

use rstest::rstest;

use super::{bin, report, run, stderr, write};

/// The stored reports of unrelated platforms: nothing to compare is an error (exit 2), never
/// a list of "regressions".
#[rstest]
#[case::bullseye_vs_macos_link(
    "targets/reports/container-debian-bullseye.json",
    "targets/reports/link-x86_64-macos.10.14.json"
)]
#[case::glibc_run_vs_glibc_link(
    "targets/reports/container-debian-bullseye.json",
    "targets/reports/link-x86_64-linux-gnu.2.34.json"
)]
fn unrelated_platforms_are_refused(#[case] old: &str, #[case] new: &str) {
    let out = run(bin().args(["diff", old, new]));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("share no platform"), "{err}");
    assert!(out.stdout.is_empty(), "no listing");
}

/// `--json`: the column pairs, the changes and the number of regressions, on stdout.
#[test]
fn json_lists_pairs_changes_and_regressions() {
    let tmp = tempfile::tempdir().unwrap();
    let old = write(tmp.path(), "old.json", &report("linux", "2.36", true, "ok"));
    let new = write(
        tmp.path(),
        "new.json",
        &report("linux", "2.41", false, "ok"),
    );
    let out = run(bin().arg("diff").arg(&old).arg(&new).arg("--json"));
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(json["regressions"], 1);
    let pair = &json["compared"][0];
    assert_eq!(pair["old"], "linux-x86_64-glibc-2.36@native");
    assert_eq!(pair["new"], "linux-x86_64-glibc-2.41@native");
    assert_eq!(pair["platform"], "linux x86_64 glibc (run)");
    let change = &json["changes"][0];
    assert_eq!(change["kind"], "regression");
    assert_eq!(
        change["row"],
        "functions.posix_spawn_file_actions_addchdir_np"
    );
}

/// A matrix against a report of one of its platforms: that platform is compared, the others
/// are listed apart as removed columns, and they do not count as regressions.
#[test]
fn unmatched_columns_are_listed_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let linux = write(
        tmp.path(),
        "linux.json",
        &report("linux", "2.36", true, "ok"),
    );
    let mac = write(tmp.path(), "mac.json", &report("macos", "1", true, "ok"));
    let out_dir = tmp.path().join("m");
    let merged = run(bin()
        .args(["matrix", "--no-docs", "--out"])
        .arg(&out_dir)
        .arg(&linux)
        .arg(&mac));
    assert!(merged.status.success());
    let out = run(bin()
        .arg("diff")
        .arg(out_dir.join("matrix.json"))
        .arg(&linux)
        .arg("--json"));
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["compared"].as_array().unwrap().len(), 1);
    assert_eq!(json["regressions"], 0);
    let changes = json["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0]["kind"], "removed");
    assert!(changes[0]["column"].as_str().unwrap().starts_with("macos-"));
}

/// Two published summaries compare as releases: a changed cell (old → new) and a baseline that
/// lost a feature, which is a regression (exit 1); the same file twice has no changes.
#[test]
fn published_summaries_compare_as_releases() {
    let committed = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/summary.json"),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let old = write(tmp.path(), "old.json", &committed);
    let mut doc: serde_json::Value = serde_json::from_str(&committed).unwrap();
    let rows = doc["sections"][0]["rows"].as_array_mut().unwrap();
    let row = rows
        .iter_mut()
        .find(|r| r["id"] == "functions.posix_spawn_file_actions_addchdir_np")
        .unwrap();
    row["answers"][0]["text"] = "2.30".into();
    // The letters as the committed file has them (R, L, D in that order).
    let letters: String = row["answers"][0]["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap()[..1].to_uppercase())
        .collect();
    let baseline_rows = doc["baselines"]["rows"].as_array_mut().unwrap();
    let b = baseline_rows
        .iter_mut()
        .find(|r| r["id"] == "functions.posix_spawn_file_actions_addchdir_np")
        .unwrap();
    let debian = b["answers"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|a| a["baseline"] == "debian-12")
        .unwrap();
    assert_eq!(debian["value"], "yes");
    debian["value"] = "no".into();
    let new = write(tmp.path(), "new.json", &doc.to_string());
    let out = run(bin().arg("diff").arg(&old).arg(&new));
    assert_eq!(
        out.status.code(),
        Some(1),
        "losing a baseline answer is a regression"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "| `functions.posix_spawn_file_actions_addchdir_np` | linux-glibc | 2.29 {letters} | 2.30 {letters} |"
        )),
        "{text}"
    );
    assert!(text.contains("| debian-12 | yes | no |"), "{text}");
    let out = run(bin().arg("diff").arg(&old).arg(&old).arg("--json"));
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["step"], serde_json::Value::Null);
    assert_eq!(json["regressions"], 0);
}
