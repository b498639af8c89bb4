//! Rows resting on one fact, against each other: the rows one claim covers (a header block,
//! an availability macro, an API-level gate, a release note) answer alike, and one source
//! gives the documented letter on every row that cites it.

use std::collections::BTreeMap;

use super::{current, exact, problem, Check, Problem};
use crate::matrix::model::{letters, Evidence, Value};
use crate::matrix::summary::{Answer, Summary};

pub(super) fn check(s: &Summary, out: &mut Vec<Problem>) {
    shared_claims(s, out);
    same_source_different_evidence(s, out);
}

/// The answer of `family` on row `id`.
fn answer<'s>(s: &'s Summary, id: &str, family: &str) -> Option<&'s Answer> {
    s.rows()
        .find(|r| r.id == id)
        .and_then(|r| r.answers.iter().find(|a| a.family == family))
}

/// The states of an answer that come from claim `id`, in words.
fn states_from(a: &Answer, id: &str) -> Vec<String> {
    let mut out: Vec<String> = a
        .states
        .iter()
        .filter(|st| st.claim.as_deref() == Some(id))
        .map(|st| st.short())
        .collect();
    out.sort();
    out
}

/// Every claim a family states once for several rows: the rows whose current value rests
/// on it print the same answer with the same letters, the rows it covers where the value is
/// there carry the same states from it, and a row it covers does not leave it out while a
/// sibling shows it.
fn shared_claims(s: &Summary, out: &mut Vec<Problem>) {
    for fam in &s.families {
        for claim in &fam.shared_claims {
            let rows: Vec<(&str, Option<&Answer>)> = claim
                .rows
                .iter()
                .map(|r| (r.as_str(), answer(s, r, &fam.id)))
                .collect();
            let mut fail = |row: &str, why: String| {
                out.push(problem(Check::SharedClaimDisagrees, &fam.id, row, why))
            };
            let citing: Vec<(&str, &Answer)> = rows
                .iter()
                .filter_map(|(r, a)| Some((*r, (*a)?)))
                .filter(|(_, a)| a.claims.contains(&claim.id))
                .collect();
            let shown = |a: &Answer| format!("{} {}", a.text, letters(&a.evidence));
            if let Some((first, reference)) = majority(&citing, |a| shown(a)) {
                for (row, a) in &citing {
                    if shown(a) != shown(reference) {
                        fail(
                            row,
                            format!(
                                "{:?} here, {:?} on {first}, both from claim {}",
                                shown(a),
                                shown(reference),
                                claim.id
                            ),
                        );
                    }
                }
                for (row, a) in &rows {
                    if a.is_none_or(|a| !a.claims.contains(&claim.id)) {
                        fail(
                            row,
                            format!(
                                "claim {} covers this row, but its answer does not rest on it while {first}'s does",
                                claim.id
                            ),
                        );
                    }
                }
            }
            // States: compared where the value is there (a state says nothing of an absent
            // row).
            let present: Vec<(&str, &Answer)> = rows
                .iter()
                .filter_map(|(r, a)| Some((*r, (*a)?)))
                .filter(|(_, a)| current(a).is_some_and(|v| *v != Value::Bool(false)))
                .collect();
            if present
                .iter()
                .all(|(_, a)| states_from(a, &claim.id).is_empty())
            {
                continue;
            }
            let Some((first, reference)) = majority(&present, |a| states_from(a, &claim.id)) else {
                continue;
            };
            let want = states_from(reference, &claim.id);
            for (row, a) in &present {
                let got = states_from(a, &claim.id);
                if got != want {
                    fail(
                        row,
                        format!(
                            "states {got:?} here, {want:?} on {first}, both from claim {}",
                            claim.id
                        ),
                    );
                }
            }
        }
    }
}

/// The source keys behind the current value: every release of its final run cites them.
fn current_sources(a: &Answer) -> Vec<&str> {
    let Some(value) = current(a) else {
        return Vec::new();
    };
    let mut keys: Vec<&str> = a
        .history
        .iter()
        .rev()
        .take_while(|st| st.value == *value || exact(&st.release).is_none())
        .filter(|st| st.value == *value)
        .flat_map(|st| st.cites.iter().map(String::as_str))
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// The row whose `key` most rows share (the first of them), what the others are held to:
/// one odd sibling is the one reported.
fn majority<'a, K: PartialEq>(
    rows: &[(&'a str, &'a Answer)],
    key: impl Fn(&Answer) -> K,
) -> Option<(&'a str, &'a Answer)> {
    let count = |a: &Answer| rows.iter().filter(|(_, b)| key(b) == key(a)).count();
    let most = rows.iter().map(|(_, a)| count(a)).max()?;
    rows.iter().find(|(_, a)| count(a) == most).copied()
}

/// Within a family, every answer whose current value rests on a source carries the
/// documented letter: one source cannot give `D` on one row and not on another.
fn same_source_different_evidence(s: &Summary, out: &mut Vec<Problem>) {
    let doc = |a: &Answer| a.evidence.contains(&Evidence::Doc);
    // (family, source key) -> the first row citing it, and its answer.
    let mut seen: BTreeMap<(&str, &str), (&str, &Answer)> = BTreeMap::new();
    for row in s.rows() {
        for a in &row.answers {
            for key in current_sources(a) {
                match seen.get(&(a.family.as_str(), key)) {
                    Some((other, b)) if doc(b) != doc(a) => out.push(problem(
                        Check::SameSourcesDifferentEvidence,
                        &a.family,
                        &row.id,
                        format!(
                            "{} here, {} on {other}, both resting on {key}",
                            letters(&a.evidence),
                            letters(&b.evidence),
                        ),
                    )),
                    Some(_) => {}
                    None => {
                        seen.insert((a.family.as_str(), key), (&row.id, a));
                    }
                }
            }
        }
    }
}
