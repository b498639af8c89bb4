//! Inputs that must be refused: no reports, a wrong or missing `--targets`, main-job options
//! before a subcommand; and how an error reads (once, without temporary names).

use rstest::rstest;

use super::{bin, report, run, stderr, write};

/// `matrix` with nothing to merge, or with a targets folder that is not one, fails and writes
/// nothing.
#[rstest]
#[case::empty_folder(&["matrix", "{tmp}/empty"], "no reports in {tmp}/empty")]
#[case::missing_targets(&["matrix", "{tmp}/r.json", "--targets", "{tmp}/nope"], "no targets folder at {tmp}/nope")]
#[case::targets_without_families(&["matrix", "{tmp}/r.json", "--targets", "targets/reports"], "targets/reports: no <family>/platform.yaml")]
#[case::main_job(&["--no-bench", "--targets", "{tmp}/empty"], "{tmp}/empty: no <family>/platform.yaml")]
#[case::expect(&["expect", "--check", "--targets", "{tmp}/nope"], "no targets folder at {tmp}/nope")]
#[case::probe(&["probe", "--json", "--targets", "{tmp}/empty"], "{tmp}/empty: no <family>/platform.yaml")]
#[case::probe_cases(&["probe", "--json", "--cases", "{tmp}/empty"], "{tmp}/empty: no case files")]
fn empty_or_wrong_inputs_are_errors(#[case] args: &[&str], #[case] message: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().to_str().unwrap();
    std::fs::create_dir(tmp.path().join("empty")).unwrap();
    write(tmp.path(), "r.json", &report("linux", "2.36", true, "ok"));
    let args: Vec<String> = args.iter().map(|a| a.replace("{tmp}", t)).collect();
    let out = run(bin().args(&args).arg("--out").arg(tmp.path().join("out")));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(&message.replace("{tmp}", t)));
    assert!(!tmp.path().join("out").exists(), "nothing written");
}

/// The main job's options belong to the main job: before a subcommand they are refused, not
/// silently ignored.
#[rstest]
#[case(&["--out", "x", "probe"])]
#[case(&["--no-bench", "query", "addchdir"])]
#[case(&["--targets", "targets", "matrix", "targets/reports"])]
fn main_job_options_before_a_subcommand_are_refused(#[case] args: &[&str]) {
    let out = run(bin().args(args));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot be used with"));
}

/// A cause or a position the message already gives is not printed again.
#[rstest]
#[case::missing_file("missing.json", None, "No such file or directory")]
#[case::bad_json("bad.json", Some("{\n\"schema_version\": 1,\n]"), "bad.json:3:1:")]
fn an_error_says_each_thing_once(
    #[case] name: &str,
    #[case] text: Option<&str>,
    #[case] once: &str,
) {
    let tmp = tempfile::tempdir().unwrap();
    if let Some(text) = text {
        write(tmp.path(), name, text);
    }
    let out = run(bin()
        .arg("matrix")
        .arg(tmp.path().join(name))
        .arg("--out")
        .arg(tmp.path().join("out")));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.matches(once).count(), 1, "{err}");
    assert!(!err.contains(" at line "), "position given twice: {err}");
}

/// A YAML error (a case file) names file, line and column once.
#[test]
fn a_yaml_error_gives_its_position_once() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "r.json", &report("linux", "2.36", true, "ok"));
    write(
        tmp.path(),
        "cases/exec/bad.yaml",
        "id: exec-bad\ntitle: [unclosed\n",
    );
    let out = run(bin()
        .arg("matrix")
        .arg(tmp.path().join("r.json"))
        .arg("--no-docs")
        .arg("--cases")
        .arg(tmp.path().join("cases"))
        .arg("--out")
        .arg(tmp.path().join("out")));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad.yaml:"), "{err}");
    assert!(!err.contains(" at line "), "position given twice: {err}");
}

/// An output that cannot be written names the output, never the temporary file the atomic
/// write stages it in. The output is below a regular file (ENOTDIR on every system, root or
/// not, with or without /proc), so the temporary file cannot be made either.
#[rstest]
#[case::matrix(&["matrix", "{tmp}/r.json", "--no-docs", "--out", "{tmp}/r.json/out"])]
#[case::probe(&["probe", "--no-cases", "--out", "{tmp}/r.json/out"])]
fn a_failed_write_shows_no_temporary_path(#[case] args: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "r.json", &report("linux", "2.36", true, "ok"));
    let t = tmp.path().to_str().unwrap();
    let args: Vec<String> = args.iter().map(|a| a.replace("{tmp}", t)).collect();
    let out = run(bin().args(&args));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("r.json/out"), "{err}");
    assert!(!err.contains(".spawnmatrix-"), "{err}");
}
