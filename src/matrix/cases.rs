//! What the matrix knows about conformance cases beyond their ids: each case's area (its
//! group) and title, in the catalogue's area order, read from the case files.

use std::collections::BTreeMap;

use crate::conformance::LoadedCase;

/// The function rows a case calls: its spawn function and the file actions beyond the
/// original three (open, close and dup2 come with `posix_spawn`). Read from the case as its
/// file spells it (`spawn: posix_spawnp`, `op: chdir`, `api: posix`), as `area` is.
fn uses(case: &LoadedCase) -> Vec<String> {
    let v = serde_json::to_value(&case.case).unwrap_or_default();
    let spawn = v["spawn"].as_str().unwrap_or("posix_spawn");
    let mut out = vec![format!("functions.{spawn}")];
    for action in v["actions"].as_array().into_iter().flatten() {
        let np = action["api"].as_str() != Some("posix");
        let name = match (action["op"].as_str(), np) {
            (Some("chdir"), true) => "posix_spawn_file_actions_addchdir_np",
            (Some("chdir"), false) => "posix_spawn_file_actions_addchdir",
            (Some("fchdir"), true) => "posix_spawn_file_actions_addfchdir_np",
            (Some("fchdir"), false) => "posix_spawn_file_actions_addfchdir",
            (Some("closefrom"), _) => "posix_spawn_file_actions_addclosefrom_np",
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
            index.uses.insert(c.case.id.clone(), uses(c));
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
