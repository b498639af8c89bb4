//! Where the suite's data lives: the working tree the command runs in, never the checkout the
//! binary was built from (a binary copied to another clone must read that clone's cases).
//!
//! The root is the first folder, walking up from the current directory, that holds both
//! `conformance/` and `targets/`. `SPAWNMATRIX_CASES` / `SPAWNMATRIX_TARGETS` (what containers
//! set) and the commands' `--cases` / `--targets` flags win over it.

use std::path::{Path, PathBuf};

/// The first ancestor of `start` (itself included) holding `conformance/` and `targets/`.
pub fn root_from(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("conformance").is_dir() && d.join("targets").is_dir())
        .map(Path::to_path_buf)
}

/// The working tree's root, from the current directory.
pub fn root() -> Option<PathBuf> {
    root_from(&std::env::current_dir().ok()?)
}

/// `$var`, else `<root>/<rel>`, else `rel` relative to the current directory (so an error
/// names the path that was looked for).
fn dir(var: &str, rel: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    root().map_or_else(|| PathBuf::from(rel), |r| r.join(rel))
}

/// The case folder: `$SPAWNMATRIX_CASES`, else the working tree's `conformance/cases`.
pub fn cases_dir() -> PathBuf {
    dir("SPAWNMATRIX_CASES", "conformance/cases")
}

/// The `targets/` folder: `$SPAWNMATRIX_TARGETS`, else the working tree's `targets`.
pub fn targets_dir() -> PathBuf {
    dir("SPAWNMATRIX_TARGETS", "targets")
}

#[cfg(test)]
mod tests {
    use super::root_from;
    use rstest::rstest;

    #[rstest]
    #[case("", true)]
    #[case("targets/linux-glibc", true)]
    #[case("conformance/cases/chdir", true)]
    fn found_from_inside(#[case] sub: &str, #[case] found: bool) {
        let tmp = tempfile::tempdir().unwrap();
        for d in ["conformance/cases/chdir", "targets/linux-glibc"] {
            std::fs::create_dir_all(tmp.path().join(d)).unwrap();
        }
        let got = root_from(&tmp.path().join(sub));
        assert_eq!(got.as_deref() == Some(tmp.path()), found, "{got:?}");
    }

    #[rstest]
    #[case(&["targets"])]
    #[case(&["conformance"])]
    #[case(&[])]
    fn not_found_without_both(#[case] dirs: &[&str]) {
        let tmp = tempfile::tempdir().unwrap();
        for d in dirs {
            std::fs::create_dir_all(tmp.path().join(d)).unwrap();
        }
        let got = root_from(tmp.path());
        assert!(
            got.as_deref().is_none_or(|r| !r.starts_with(tmp.path())),
            "{got:?}"
        );
    }
}
