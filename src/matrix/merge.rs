//! Merging reports and documented claims into one matrix.
//!
//! [`merge_with`] reads top-down: observed columns (reports grouped by platform key, each
//! given what its family documents at its release), then the families' doc columns, then
//! the table (rows, groups, families). The documented side is asked one question per column,
//! [`Family::at`], which reads each row's history ([`super::history::History`]).
//!
//! Precedence works per cell: a column made from run (or link) reports keeps its observed
//! values; the family's documented claim for that release is attached (`doc`), fills rows the
//! reports did not cover (as `doc` cells), and is listed under `conflicts` when it disagrees.
//! Several reports with the same platform key form one column: the newest wins each cell and
//! the others' differing values are listed under `conflicts`.

use std::collections::{BTreeMap, BTreeSet};

use super::cases::CaseIndex;
use super::docs::{Docs, Documented, Family, VersionOf};
use super::error::MatrixError;
use super::load::SourcedReport;
use super::model::{
    Alternative, Cell, Claim, Column, Evidence, FamilyInfo, Matrix, Row, State, Value,
    MATRIX_SCHEMA_VERSION,
};
use super::rows;
use super::version::{Release, Version};
use crate::report::{Platform, SUITE_VERSION};

/// One column under construction.
struct Draft {
    column: Column,
    cells: BTreeMap<String, Cell>,
}

/// Adds `other` to the cell's conflicts unless it agrees or is already listed.
fn add_conflict(cell: &mut Cell, other: Alternative) {
    if !other.value.agrees_with(&cell.value) && !cell.conflicts.contains(&other) {
        cell.conflicts.push(other);
    }
}

/// Groups reports by platform key, newest first; the same run given twice is an error.
fn group_by_key(
    reports: &[SourcedReport],
) -> Result<BTreeMap<String, Vec<&SourcedReport>>, MatrixError> {
    let mut groups: BTreeMap<String, Vec<&SourcedReport>> = BTreeMap::new();
    for r in reports {
        let key = r.report.platform.key();
        let group = groups.entry(key.clone()).or_default();
        if let Some(same) = group.iter().find(|o| {
            o.report.generated_at == r.report.generated_at
                && o.report.platform.provenance.host == r.report.platform.provenance.host
        }) {
            return Err(MatrixError::DuplicateReport {
                key,
                first: same.origin.clone(),
                second: r.origin.clone(),
            });
        }
        group.push(r);
    }
    for group in groups.values_mut() {
        group.sort_by(|a, b| b.report.generated_at.cmp(&a.report.generated_at));
    }
    Ok(groups)
}

fn report_column(key: String, group: &[&SourcedReport], docs: &Docs) -> Result<Draft, MatrixError> {
    let newest = group[0];
    let platform = &newest.report.platform;
    let evidence = Evidence::from_provenance(&platform.provenance.kind).ok_or_else(|| {
        MatrixError::UnknownProvenance {
            path: newest.origin.clone(),
            kind: platform.provenance.kind.clone(),
        }
    })?;
    let mut cells = rows::report_cells(&newest.report, evidence);
    for older in &group[1..] {
        for (row, cell) in rows::report_cells(&older.report, evidence) {
            match cells.get_mut(&row) {
                None => {
                    cells.insert(row, cell);
                }
                Some(existing) => add_conflict(
                    existing,
                    Alternative {
                        value: cell.value,
                        evidence,
                        origin: older.origin.display().to_string(),
                    },
                ),
            }
        }
    }
    let family = docs.family_of(platform);
    if let (Some(family), true) = (family, evidence != Evidence::Doc) {
        if let Some(release) = family.release_of(platform) {
            attach_documented(family.at(&release), &mut cells);
        }
    }
    let suite_versions: BTreeSet<String> = group
        .iter()
        .map(|r| r.report.suite_version.clone())
        .collect();
    Ok(Draft {
        column: Column {
            key,
            label: base_label(platform, family),
            family: family.map(|f| f.spec.family.clone()),
            evidence,
            platform: platform.clone(),
            suite_versions: suite_versions.into_iter().collect(),
            generated_at: Some(newest.report.generated_at.clone()),
            origins: group
                .iter()
                .map(|r| r.origin.display().to_string())
                .collect(),
        },
        cells,
    })
}

/// Attaches what the family documents at this column's release to its observed cells
/// (flagging the claims they contradict) and fills rows nothing observed with `doc` cells.
fn attach_documented(documented: BTreeMap<&str, Documented>, cells: &mut BTreeMap<String, Cell>) {
    for (row, d) in documented {
        match (cells.get_mut(row), d.claim) {
            (Some(cell), claim) => {
                if let Some(claim) = claim {
                    add_conflict(
                        cell,
                        Alternative {
                            value: claim.value.clone(),
                            evidence: Evidence::Doc,
                            origin: claim.source.clone(),
                        },
                    );
                    cell.doc = Some(claim);
                }
                cell.states = states_of(&cell.value, d.states);
            }
            (None, Some(claim)) => {
                cells.insert(row.to_string(), doc_cell(claim, d.states));
            }
            (None, None) => {}
        }
    }
}

/// The documented states a cell of this value shows: a state qualifies a value that is
/// there, so an absent one shows none (a block claim covers rows that began at different
/// releases, and says nothing of a row where it does not exist yet).
fn states_of(value: &Value, states: Vec<State>) -> Vec<State> {
    match value {
        Value::Bool(false) => Vec::new(),
        _ => states,
    }
}

/// A cell that only a documented claim fills.
fn doc_cell(claim: Claim, states: Vec<State>) -> Cell {
    Cell {
        note: claim.note,
        source: Some(claim.source),
        since: claim.from,
        began: claim.began,
        claim: claim.claim,
        states: states_of(&claim.value, states),
        ..Cell::new(claim.value, Evidence::Doc)
    }
}

fn doc_columns(family: &Family) -> impl Iterator<Item = Draft> + '_ {
    family.spec.doc_columns.iter().filter_map(move |v| {
        let release = Release::Exact(Version::parse(v)?);
        let platform = family.doc_platform(v);
        let cells = family
            .at(&release)
            .into_iter()
            .filter_map(|(row, d)| Some((row.to_string(), doc_cell(d.claim?, d.states))))
            .collect();
        Some(Draft {
            column: Column {
                key: platform.key(),
                label: base_label(&platform, Some(family)),
                family: Some(family.spec.family.clone()),
                evidence: Evidence::Doc,
                platform,
                suite_versions: Vec::new(),
                generated_at: None,
                origins: vec![family.file.display().to_string()],
            },
            cells,
        })
    })
}

/// A short header: the libc or OS name and release, plus where it ran when not here.
fn base_label(p: &Platform, family: Option<&Family>) -> String {
    let version = |v: &Option<String>| v.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
    let name = match family {
        Some(f) if f.spec.version_of == VersionOf::Libc => {
            format!("{}{}", f.spec.title, version(&p.libc.version))
        }
        Some(f) => format!("{}{}", f.spec.title, version(&p.os_version)),
        None => format!("{} {}{}", p.os, p.libc.name, version(&p.libc.version)),
    };
    let image = p
        .provenance
        .image
        .as_deref()
        .map(|i| i.rsplit('/').next().unwrap_or(i));
    match (p.provenance.kind.as_str(), image) {
        ("container" | "ci", Some(image)) => format!("{name} ({image})"),
        ("container" | "ci", None) => format!("{name} ({})", p.provenance.kind),
        // The image is long (emulator and kernel package); the arch is what tells it apart.
        ("emulated", _) => format!("{name} ({}, emulated)", p.arch),
        _ => name,
    }
}

/// Makes labels unique: a link or doc column that shares its label with another column says
/// its evidence, then the arch is added, then a counter.
fn unique_labels(columns: &mut [Column]) {
    let count = |cols: &[Column], label: &str| cols.iter().filter(|c| c.label == label).count();
    let qualifiers: [fn(&Column) -> Option<String>; 2] = [
        |c| (c.evidence != Evidence::Run).then(|| c.evidence.name().to_string()),
        |c| Some(c.platform.arch.clone()),
    ];
    for qualify in qualifiers {
        let clashing: Vec<usize> = (0..columns.len())
            .filter(|&i| count(columns, &columns[i].label) > 1)
            .collect();
        for i in clashing {
            if let Some(q) = qualify(&columns[i]) {
                columns[i].label = format!("{} ({q})", columns[i].label);
            }
        }
    }
    for i in 0..columns.len() {
        let mut n = 2;
        let base = columns[i].label.clone();
        while count(columns, &columns[i].label) > 1 {
            columns[i].label = format!("{base} #{n}");
            n += 1;
        }
    }
}

/// Families in the order the matrix shows them; others follow by name.
pub const FAMILY_ORDER: &[&str] = &[
    "linux-glibc",
    "linux-musl",
    "macos",
    "freebsd",
    "cygwin",
    "netbsd",
    "openbsd",
    "solaris",
    "illumos-gate",
    "android",
];

/// Where a family sorts: its place in [`FAMILY_ORDER`], unknown families after, by name.
pub fn family_rank(family: Option<&str>) -> (usize, Option<String>) {
    let rank = family.and_then(|f| FAMILY_ORDER.iter().position(|x| *x == f));
    (
        rank.unwrap_or(FAMILY_ORDER.len()),
        family.map(str::to_string),
    )
}

/// Column order: family, then release (numerically, a `>=` bound after the exact release,
/// unknown last), then evidence (run, link, doc) and key, so one release's columns sit together.
fn column_order(a: &Column, b: &Column) -> std::cmp::Ordering {
    let release = |c: &Column| {
        let parse = |v: &Option<String>| v.as_deref().and_then(Release::parse);
        match parse(&c.platform.libc.version).or_else(|| parse(&c.platform.os_version)) {
            Some(Release::Exact(v)) => (0, Some(v), 0),
            Some(Release::AtLeast(v)) => (0, Some(v), 1),
            None => (1, None, 0),
        }
    };
    let family = |c: &Column| family_rank(c.family.as_deref());
    (family(a), release(a), a.evidence, &a.key).cmp(&(family(b), release(b), b.evidence, &b.key))
}

/// Merges `reports` and the documented claims in `docs` into one matrix, grouping case rows
/// by the first dash of their id.
pub fn merge(reports: &[SourcedReport], docs: &Docs) -> Result<Matrix, MatrixError> {
    merge_with(reports, docs, &CaseIndex::default())
}

/// Merges `reports` and the documented claims in `docs` into one matrix, grouping case rows
/// by the areas `cases` gives and titling them.
pub fn merge_with(
    reports: &[SourcedReport],
    docs: &Docs,
    cases: &CaseIndex,
) -> Result<Matrix, MatrixError> {
    let mut drafts = observed_columns(reports, docs)?;
    add_doc_columns(docs, &mut drafts)?;
    drafts.sort_by(|a, b| column_order(&a.column, &b.column));
    let (columns, table) = into_table(drafts);
    let (groups, rows) = into_rows(table, cases);
    Ok(Matrix {
        schema_version: MATRIX_SCHEMA_VERSION,
        families: families_of(docs, &columns),
        suite_version: SUITE_VERSION.to_string(),
        generated_at: crate::report::now_rfc3339(),
        columns,
        groups,
        rows,
    })
}

/// One column per platform key of the reports, with the family's documentation attached.
fn observed_columns(reports: &[SourcedReport], docs: &Docs) -> Result<Vec<Draft>, MatrixError> {
    group_by_key(reports)?
        .into_iter()
        .map(|(key, group)| report_column(key, &group, docs))
        .collect()
}

/// Every family's doc columns; one that has a report column's key is an error.
fn add_doc_columns(docs: &Docs, drafts: &mut Vec<Draft>) -> Result<(), MatrixError> {
    for family in &docs.families {
        for draft in doc_columns(family) {
            if let Some(other) = drafts.iter().find(|d| d.column.key == draft.column.key) {
                return Err(MatrixError::Claims {
                    path: family.file.clone(),
                    message: format!(
                        "doc column {} is also a report column ({})",
                        draft.column.key,
                        other.column.origins.join(", ")
                    ),
                });
            }
            drafts.push(draft);
        }
    }
    Ok(())
}

/// Row id -> column key -> cell.
type Table = BTreeMap<String, BTreeMap<String, Cell>>;

/// The columns (labels made unique) and their cells by row.
fn into_table(drafts: Vec<Draft>) -> (Vec<Column>, Table) {
    let mut table = Table::new();
    let mut columns = Vec::with_capacity(drafts.len());
    for draft in drafts {
        for (row, cell) in draft.cells {
            table
                .entry(row)
                .or_default()
                .insert(draft.column.key.clone(), cell);
        }
        columns.push(draft.column);
    }
    unique_labels(&mut columns);
    (columns, table)
}

/// The rows in group order, titled, and the groups they fall in.
fn into_rows(table: Table, cases: &CaseIndex) -> (Vec<super::model::Group>, Vec<Row>) {
    let mut rows: Vec<((u8, usize), String, Row)> = table
        .into_iter()
        .map(|(id, cells)| {
            let group = rows::group_of(&id, cases);
            let rank = rows::group(&group, cases).0;
            let case = rows::case_of(&id);
            let row = Row {
                title: case.and_then(|c| cases.title(c)).map(str::to_string),
                uses: case.map(|c| cases.uses(c).to_vec()).unwrap_or_default(),
                id,
                group: group.clone(),
                cells,
            };
            (rank, group, row)
        })
        .collect();
    rows.sort_by(|a, b| (a.0, &a.1, &a.2.id).cmp(&(b.0, &b.1, &b.2.id)));
    let mut groups = Vec::new();
    for (_, group, _) in &rows {
        if groups.last().map(|g: &super::model::Group| &g.id) != Some(group) {
            groups.push(rows::group(group, cases).1);
        }
    }
    (groups, rows.into_iter().map(|(_, _, r)| r).collect())
}

/// The families some column belongs to, in display order.
fn families_of(docs: &Docs, columns: &[Column]) -> Vec<FamilyInfo> {
    let mut families: Vec<FamilyInfo> = docs
        .families
        .iter()
        .filter(|f| {
            columns
                .iter()
                .any(|c| c.family.as_ref() == Some(&f.spec.family))
        })
        .map(|f| FamilyInfo {
            id: f.spec.family.clone(),
            title: f.spec.title.clone(),
            os: f.spec.os.clone(),
            version_of: f.spec.version_of.name().to_string(),
            releases: f.known_releases(),
            shared_claims: f.shared_claims().to_vec(),
            unread: f.spec.unread.clone(),
            unsettled: f.spec.unsettled.clone(),
        })
        .collect();
    families.sort_by_key(|f| family_rank(Some(&f.id)));
    families
}
