//! `--check` (probe and the main job): exit 1, naming the case, when a case leaves its
//! expectation; 0 when none does.

use std::path::Path;

use rstest::rstest;

use super::{bin, run, stderr, write};

const CASE: &str = "conformance/cases/exec-errors/exec-enoent.yaml";

/// A tree with one case (`exec-enoent`) and, when `outcome` is given, an expectation file
/// saying the libc gives that outcome, for every family (so whichever this machine's libc
/// is, its file says so).
fn tree(root: &Path, outcome: Option<&str>) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let case = std::fs::read_to_string(repo.join(CASE)).unwrap();
    write(root, "cases/exec-errors/exec-enoent.yaml", &case);
    let glibc = std::fs::read_to_string(repo.join("targets/linux-glibc/platform.yaml")).unwrap();
    write(root, "targets/linux-glibc/platform.yaml", &glibc);
    let Some(outcome) = outcome else { return };
    for family in std::fs::read_dir(repo.join("targets")).unwrap() {
        let name = family.unwrap().file_name().into_string().unwrap();
        write(
            root,
            &format!("targets/{name}/expectations/default.yaml"),
            &format!(
                "libc: any\nobserved_on: tests/cli/check.rs\ncases:\n  exec-enoent:\n    outcome: {outcome}\n"
            ),
        );
    }
}

/// An outcome no libc gives for a missing program contradicts this machine: `--check`
/// fails and names the case; without an expectation file the case passes and so does the
/// check.
#[rstest]
#[case::probe_contradicted(&["probe", "--check"], Some("child-exit:99"), 1)]
#[case::probe_agrees(&["probe", "--check"], None, 0)]
#[case::main_job_contradicted(&["--check", "--no-bench", "--no-docs"], Some("child-exit:99"), 1)]
#[case::main_job_agrees(&["--check", "--no-bench", "--no-docs"], None, 0)]
fn check_fails_when_a_case_leaves_its_expectation(
    #[case] args: &[&str],
    #[case] outcome: Option<&str>,
    #[case] code: i32,
) {
    let tmp = tempfile::tempdir().unwrap();
    tree(tmp.path(), outcome);
    let out = run(bin()
        .args(args)
        .arg("--cases")
        .arg(tmp.path().join("cases"))
        .arg("--targets")
        .arg(tmp.path().join("targets"))
        .args(match args[0] {
            "probe" => vec![],
            _ => vec!["--out".into(), tmp.path().join("out").into_os_string()],
        }));
    assert_eq!(out.status.code(), Some(code));
    let err = stderr(&out);
    let named = err.contains("check: exec-enoent (libc): ") && err.contains("child-exit:99");
    assert_eq!(named, code == 1, "{err}");
    if args[0] != "probe" {
        assert!(
            tmp.path().join("out/matrix.json").is_file(),
            "written either way"
        );
    }
}
