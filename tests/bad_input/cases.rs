//! Case and expectation files: malformed, unknown keys, unknown ids, duplicate ids, bad
//! outcomes. Each is a typed `LoadError` naming the file and the line.

use std::path::{Path, PathBuf};

use rstest::rstest;
use spawnmatrix::conformance::{expectations, load, LoadError};

/// A valid case file; the variants below change one thing in it.
const VALID: &str = "\
id: bad-input-probe
title: A case used only to be broken
area: argv-envp
posix: P2
spawn: posix_spawn
program: \"${helper}\"
argv: [\"x\"]
expect:
  any_of: [ok]
";

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// The file and line an error names, from its message (`file:line[:col]: ...`).
fn place(err: &LoadError) -> (String, usize) {
    match err {
        LoadError::Yaml(y) => (y.file.clone(), y.line),
        LoadError::Invalid { file, line, .. } => (file.clone(), *line),
        LoadError::Io { path, .. } | LoadError::NoCases { dir: path } => {
            (path.display().to_string(), 0)
        }
    }
}

#[test]
fn the_valid_case_loads() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "bad-input-probe.yaml", VALID);
    load::load_file(&file).expect("the base case of these tests must be valid");
}

#[rstest]
#[case::malformed("title: A case used only to be broken", "title: [unclosed", 2, "")]
#[case::unknown_key("argv: [\"x\"]", "argv: [\"x\"]\nbogus_key: 1", 8, "bogus_key")]
#[case::bad_outcome("any_of: [ok]", "any_of: [ok, exploded:EVERYWHERE]", 9, "exploded")]
#[case::not_kebab("id: bad-input-probe", "id: Bad_Input", 1, "kebab")]
#[case::file_name("id: bad-input-probe", "id: another-name", 1, "another-name")]
fn a_broken_case_file_names_file_and_line(
    #[case] from: &str,
    #[case] to: &str,
    #[case] line: usize,
    #[case] mentions: &str,
) {
    let dir = tempfile::tempdir().unwrap();
    let text = VALID.replacen(from, to, 1);
    assert_ne!(text, VALID, "the test's replacement did not apply");
    let file = write(dir.path(), "bad-input-probe.yaml", &text);
    let err = load::load_file(&file).expect_err("a broken case file was accepted");
    let (named, at) = place(&err);
    assert_eq!(named, file.display().to_string(), "{err}");
    assert_eq!(at, line, "wrong line in: {err}");
    assert!(err.to_string().contains(mentions), "{err}");
}

#[test]
fn a_duplicate_case_id_names_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let first = write(dir.path(), "a/bad-input-probe.yaml", VALID);
    let second = write(dir.path(), "b/bad-input-probe.yaml", VALID);
    let err = load::load_dir(dir.path()).expect_err("duplicate ids were accepted");
    let msg = err.to_string();
    assert!(msg.contains(&first.display().to_string()), "{msg}");
    assert!(msg.contains(&second.display().to_string()), "{msg}");
}

#[test]
fn an_expectation_for_an_unknown_case_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "expectations/default.yaml",
        "libc: glibc\nobserved_on: linux-x86_64\ncases:\n  bad-input-probe:\n    outcome: ok\n  no-such-case:\n    outcome: ok\n",
    );
    let err =
        expectations::load(&file, &["bad-input-probe"]).expect_err("an unknown id was accepted");
    assert_eq!(place(&err), (file.display().to_string(), 6), "{err}");
    assert!(err.to_string().contains("no-such-case"), "{err}");
}
