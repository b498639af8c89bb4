//! What several commands share: finding the conformance cases and `targets/` (a flag, else
//! the working tree), and the matrix built only from what the repository stores
//! (`targets/reports/*.json` and `targets/*/platform.yaml`, no live probe), which is the same
//! on every machine and rerun.

use std::path::{Path, PathBuf};

use spawnmatrix::matrix::cases::CaseIndex;
use spawnmatrix::matrix::docs::Docs;
use spawnmatrix::matrix::load;
use spawnmatrix::matrix::{Matrix, MatrixError};

/// Where the suite's data is, for the commands that run the cases or read expectations.
#[derive(clap::Args)]
pub struct Tree {
    /// The conformance case folder [default: $SPAWNMATRIX_CASES, else the working tree's
    /// conformance/cases].
    #[arg(long, value_name = "DIR")]
    cases: Option<PathBuf>,
    /// The platform families (<family>/platform.yaml), their expectation files and the stored
    /// reports [default: $SPAWNMATRIX_TARGETS, else the working tree's targets/].
    #[arg(long, value_name = "DIR")]
    targets: Option<PathBuf>,
}

impl Tree {
    /// The case folder; one that does not exist is an error.
    pub fn cases(&self) -> Result<PathBuf, MatrixError> {
        let dir = self
            .cases
            .clone()
            .unwrap_or_else(spawnmatrix::worktree::cases_dir);
        match dir.is_dir() {
            true => Ok(dir),
            false => Err(MatrixError::Missing {
                what: "conformance cases",
                path: dir,
                flag: "--cases",
            }),
        }
    }

    /// The `targets/` folder (see [`targets_dir`]).
    pub fn targets(&self) -> Result<PathBuf, MatrixError> {
        targets_dir(self.targets.as_deref())
    }

    /// The case index (areas and titles) of the case folder.
    pub fn case_index(&self) -> Result<CaseIndex, Box<dyn std::error::Error>> {
        let cases = spawnmatrix::conformance::load::load_dir(&self.cases()?)?;
        Ok(CaseIndex::new(&cases))
    }
}

/// The `targets/` folder: `flag`, else the working tree's (see `spawnmatrix::worktree`). A
/// folder that does not exist, or holds no `<family>/platform.yaml`, is an error, not a
/// matrix without documented claims or a run without expectations.
pub fn targets_dir(flag: Option<&Path>) -> Result<PathBuf, MatrixError> {
    let dir = flag.map_or_else(spawnmatrix::worktree::targets_dir, Path::to_path_buf);
    if !dir.is_dir() {
        return Err(MatrixError::Missing {
            what: "targets folder",
            path: dir,
            flag: "--targets",
        });
    }
    let families = load::list_dir(&dir, |d| {
        let file = d.join("platform.yaml");
        file.is_file().then_some(file)
    })?;
    match families.is_empty() {
        true => Err(MatrixError::NoFamilies { dir }),
        false => Ok(dir),
    }
}

/// The case folder that goes with a `targets/` folder: `$SPAWNMATRIX_CASES`, else the
/// `conformance/cases` beside it (the checkout it belongs to, wherever the command runs),
/// else the working tree's.
pub fn cases_for(targets: &Path) -> PathBuf {
    let beside = targets.parent().map(|root| root.join("conformance/cases"));
    match (std::env::var_os("SPAWNMATRIX_CASES"), beside) {
        (Some(dir), _) if !dir.is_empty() => PathBuf::from(dir),
        (_, Some(dir)) if dir.is_dir() => dir,
        _ => spawnmatrix::worktree::cases_dir(),
    }
}

/// The matrix of the stored reports and claims. `generated_at` is the newest report's, so
/// the same inputs give the same bytes.
pub fn matrix(targets: &Path) -> Result<Matrix, Box<dyn std::error::Error>> {
    let reports = load::read_report_dir(&targets.join("reports"))?;
    let docs = Docs::load(targets)?;
    let cases_dir = cases_for(targets);
    if !cases_dir.is_dir() {
        return Err(MatrixError::Missing {
            what: "conformance cases (beside the targets folder, or $SPAWNMATRIX_CASES)",
            path: cases_dir,
            flag: "SPAWNMATRIX_CASES",
        }
        .into());
    }
    let cases = CaseIndex::new(&spawnmatrix::conformance::load::load_dir(&cases_dir)?);
    let mut matrix = spawnmatrix::matrix::merge_with(&reports, &docs, &cases)?;
    matrix.generated_at = reports
        .iter()
        .map(|r| r.report.generated_at.as_str())
        .max()
        .unwrap_or("")
        .to_string();
    Ok(matrix)
}
