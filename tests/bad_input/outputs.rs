//! An output folder that cannot be written: the error names the folder and the previous
//! outputs stay as they were. (Run as root, permission bits do not stop writes, so the
//! failure is made by a directory standing where one output file goes.)

use spawnmatrix::matrix::render::Outputs;

const OLD: [(&str, &str); 3] = [
    ("matrix.json", "old json"),
    ("MATRIX.md", "old markdown"),
    ("index.html", "old html"),
];

fn outputs() -> Outputs {
    Outputs {
        json: String::from("new json"),
        markdown: String::from("new markdown"),
        html: String::from("new html"),
    }
}

/// A folder holding the old outputs, where `blocked` is a directory instead of a file.
fn folder(blocked: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in OLD {
        if name == blocked {
            std::fs::create_dir(dir.path().join(name)).unwrap();
            std::fs::write(dir.path().join(name).join("keep"), text).unwrap();
        } else {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
    }
    dir
}

#[rstest::rstest]
#[case::first("matrix.json")]
#[case::last("index.html")]
fn an_unwritable_output_leaves_the_old_ones(#[case] blocked: &str) {
    let dir = folder(blocked);
    let err = outputs()
        .write(dir.path(), &[])
        .expect_err("writing over a directory worked");
    assert!(
        err.to_string().contains(&dir.path().display().to_string()),
        "{err}"
    );
    for (name, text) in OLD.iter().filter(|(n, _)| *n != blocked) {
        let now = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(
            &now, text,
            "{name} was replaced although writing {blocked} failed"
        );
    }
    let strays: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".spawnmatrix-"))
        .collect();
    assert!(strays.is_empty(), "temporary files left behind: {strays:?}");
}

#[test]
fn an_output_folder_under_a_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let err = outputs()
        .write(&file.join("out"), &[])
        .expect_err("wrote under a file");
    assert!(err.to_string().contains("not-a-dir"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

/// A failure after some renames already happened (an extra file whose name is too long):
/// the renamed outputs are put back.
#[test]
fn a_late_failure_puts_back_what_was_already_replaced() {
    let dir = folder("none");
    let long = "x".repeat(300);
    let err = outputs()
        .write(dir.path(), &[(long.as_str(), b"extra".as_slice())])
        .expect_err("a 300-byte file name was written");
    assert!(
        err.to_string().contains(&dir.path().display().to_string()),
        "{err}"
    );
    for (name, text) in OLD {
        let now = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(now, text, "{name} was not put back");
    }
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), OLD.len(), "files left behind: {names:?}");
}
