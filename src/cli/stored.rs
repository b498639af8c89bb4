//! What several commands share: finding `targets/` (flag, else the working tree) and the
//! matrix built only from what the repository stores (`targets/reports/*.json` and
//! `targets/*/platform.yaml`, no live probe), which is the same on every machine and rerun.

use std::path::{Path, PathBuf};

use spawnmatrix::matrix::cases::CaseIndex;
use spawnmatrix::matrix::docs::Docs;
use spawnmatrix::matrix::load;
use spawnmatrix::matrix::Matrix;

/// The `targets/` folder: `--targets`, else the working tree's (see `spawnmatrix::worktree`).
/// A folder that does not exist is an error, not a matrix without documented claims.
pub fn targets_dir(flag: Option<&Path>) -> Result<PathBuf, String> {
    let dir = flag.map_or_else(spawnmatrix::worktree::targets_dir, Path::to_path_buf);
    match dir.is_dir() {
        true => Ok(dir),
        false => Err(format!(
            "no targets folder at {} (run inside the repository or give --targets DIR)",
            dir.display()
        )),
    }
}

/// The documented claims of `targets`; a folder without any `<family>/platform.yaml` is an
/// error (a wrong `--targets` would otherwise drop every claim silently).
pub fn docs(targets: &Path) -> Result<Docs, Box<dyn std::error::Error>> {
    let docs = Docs::load(targets)?;
    if docs.families.is_empty() {
        return Err(format!(
            "{}: no <family>/platform.yaml inside (is --targets the repository's targets/?)",
            targets.display()
        )
        .into());
    }
    Ok(docs)
}

/// The matrix of the stored reports and claims. `generated_at` is the newest report's, so
/// the same inputs give the same bytes.
pub fn matrix(targets: &Path) -> Result<Matrix, Box<dyn std::error::Error>> {
    let reports = load::read_report_dir(&targets.join("reports"))?;
    let docs = docs(targets)?;
    let cases = CaseIndex::load_default()?;
    let mut matrix = spawnmatrix::matrix::merge_with(&reports, &docs, &cases)?;
    matrix.generated_at = reports
        .iter()
        .map(|r| r.report.generated_at.as_str())
        .max()
        .unwrap_or("")
        .to_string();
    Ok(matrix)
}
