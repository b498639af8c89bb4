//! What the matrix knows about conformance cases beyond their ids: each case's area (its
//! group) and title, in the catalogue's area order, read from the case files.

use std::collections::BTreeMap;

use crate::conformance::case::{Action, Case, ChdirApi, SpawnFn};
use crate::conformance::LoadedCase;

/// The function rows a case calls: its spawn function and the file actions beyond the
/// original three (open, close and dup2 come with `posix_spawn`).
fn uses(case: &Case) -> Vec<String> {
    let spawn = match case.spawn {
        SpawnFn::PosixSpawnp => "posix_spawnp",
        SpawnFn::PosixSpawn => "posix_spawn",
    };
    let mut out = vec![format!("functions.{spawn}")];
    for action in case.actions.iter().flatten() {
        let name = match action {
            Action::Chdir {
                api: ChdirApi::Np, ..
            } => "posix_spawn_file_actions_addchdir_np",
            Action::Chdir { .. } => "posix_spawn_file_actions_addchdir",
            Action::Fchdir {
                api: ChdirApi::Np, ..
            } => "posix_spawn_file_actions_addfchdir_np",
            Action::Fchdir { .. } => "posix_spawn_file_actions_addfchdir",
            Action::Closefrom { .. } => "posix_spawn_file_actions_addclosefrom_np",
            _ => continue,
        };
        let row = format!("functions.{name}");
        if !out.contains(&row) {
            out.push(row);
        }
    }
    out
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct CaseIndex {
    /// Case id -> (area, title).
    cases: BTreeMap<String, (String, String)>,
    /// Case id -> the feature rows it relies on.
    uses: BTreeMap<String, Vec<String>>,
    /// Areas in catalogue order.
    areas: Vec<String>,
}

impl CaseIndex {
    /// Indexes loaded cases; areas keep the catalogue's order.
    pub fn new(cases: &[LoadedCase]) -> CaseIndex {
        let mut sorted: Vec<&LoadedCase> = cases.iter().collect();
        sorted.sort_by(|a, b| (a.case.area, &a.case.id).cmp(&(b.case.area, &b.case.id)));
        let mut index = CaseIndex::default();
        for c in sorted {
            // Area is a unit enum with kebab-case names: it serializes to a string.
            let area = serde_json::to_value(c.case.area)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            if index.areas.last() != Some(&area) {
                index.areas.push(area.clone());
            }
            index
                .cases
                .insert(c.case.id.clone(), (area, c.case.title.clone()));
            index.uses.insert(c.case.id.clone(), uses(&c.case));
        }
        index
    }

    /// The cases in the repository (`conformance/cases`, or `$SPAWNMATRIX_CASES`).
    pub fn load_default() -> Result<CaseIndex, crate::conformance::LoadError> {
        let dir = crate::conformance::load::default_dir();
        Ok(CaseIndex::new(&crate::conformance::load::load_dir(&dir)?))
    }

    /// The case's area; for a case the index does not know, its id up to the first dash.
    pub fn area<'a>(&'a self, case_id: &'a str) -> &'a str {
        match self.cases.get(case_id) {
            Some((area, _)) => area,
            None => case_id.split('-').next().unwrap_or(case_id),
        }
    }

    /// The feature rows a case relies on (empty for a case the index does not know).
    pub fn uses(&self, case_id: &str) -> &[String] {
        self.uses.get(case_id).map_or(&[], Vec::as_slice)
    }

    pub fn title(&self, case_id: &str) -> Option<&str> {
        self.cases.get(case_id).map(|(_, title)| title.as_str())
    }

    /// Where an area's group sorts among the case groups: catalogue order, unknown areas last.
    pub fn area_rank(&self, area: &str) -> usize {
        self.areas
            .iter()
            .position(|a| a == area)
            .unwrap_or(self.areas.len())
    }
}
