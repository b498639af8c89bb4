//! What the matrix knows about conformance cases beyond their ids: each case's area (its
//! group) and title, in the catalogue's area order, read from the case files.

use std::collections::BTreeMap;

use crate::conformance::LoadedCase;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct CaseIndex {
    /// Case id -> (area, title).
    cases: BTreeMap<String, (String, String)>,
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
