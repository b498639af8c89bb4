//! `spawnmatrix probe`, run as a program.

use std::process::{Command, Output};

use rstest::rstest;
use spawnmatrix::report::{Report, SCHEMA_VERSION};
use spawnmatrix::spawn::Strategy;

fn probe(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spawnmatrix"));
    // The conformance cases take seconds and have their own tests (tests/conformance.rs).
    cmd.arg("probe").arg("--no-cases").args(args);
    for var in [
        "SPAWNMATRIX_PROVENANCE",
        "SPAWNMATRIX_IMAGE",
        "SPAWNMATRIX_HOST",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied()).output().unwrap()
}

fn report_of(out: &Output) -> Report {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("probe --json prints one Report")
}

#[test]
fn json_is_one_report_of_this_platform() {
    let report = report_of(&probe(&["--json"], &[]));
    assert_eq!(report.schema_version, SCHEMA_VERSION);
    assert_eq!(report.platform, {
        let mut expected = spawnmatrix::platform::detect();
        expected.provenance = report.platform.provenance.clone();
        expected
    });
    assert_eq!(report.platform.provenance.kind, "native");
    assert!(report.capabilities["posix_spawn"].available);
    assert!(report.capabilities.contains_key("POSIX_SPAWN_SETSID"));
    let auto = report
        .auto_strategy
        .expect("the report says which strategy Auto took");
    assert!(
        Strategy::available()
            .iter()
            .any(|s| *s != Strategy::Auto && s.name() == auto),
        "Auto took {auto}, which is not an available strategy here"
    );
}

/// `--out` is a folder, as in every command: the report goes to DIR/report.json.
#[test]
fn out_writes_the_same_report_into_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("new");
    let file = folder.join("report.json");
    let out = probe(&["--out", folder.to_str().unwrap()], &[]);
    assert!(out.status.success());
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(summary.contains("posix_spawn "), "{summary}");
    let written: Report = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert!(written.capabilities["posix_spawnp"].available);
}

#[rstest]
#[case(&["--provenance", "container", "--image", "spawnmatrix/debian:bullseye"], &[], "container", Some("spawnmatrix/debian:bullseye"))]
#[case(&[], &[("SPAWNMATRIX_PROVENANCE", "ci"), ("SPAWNMATRIX_IMAGE", "macos-14")], "ci", Some("macos-14"))]
#[case(&["--provenance", "emulated", "--image", "qemu-system-arm 7.2"], &[], "emulated", Some("qemu-system-arm 7.2"))]
#[case(&["--provenance", "native"], &[("SPAWNMATRIX_PROVENANCE", "ci"), ("SPAWNMATRIX_IMAGE", "x")], "native", Some("x"))]
fn provenance_from_flags_and_env(
    #[case] args: &[&str],
    #[case] env: &[(&str, &str)],
    #[case] kind: &str,
    #[case] image: Option<&str>,
) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let report = report_of(&probe(&all, env));
    assert_eq!(report.platform.provenance.kind, kind);
    assert_eq!(report.platform.provenance.image.as_deref(), image);
}

#[rstest]
#[case(&["--provenance", "container"], &[], "--image")]
#[case(&["--provenance", "doc", "--image", "x"], &[], "\"doc\"")]
#[case(&[], &[("SPAWNMATRIX_PROVENANCE", "vm")], "SPAWNMATRIX_PROVENANCE")]
fn bad_provenance_is_an_error_naming_its_origin(
    #[case] args: &[&str],
    #[case] env: &[(&str, &str)],
    #[case] named: &str,
) {
    let out = probe(args, env);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(named), "{stderr}");
    assert!(out.stdout.is_empty());
}
