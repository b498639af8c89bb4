//! Boundaries against the releases behind them and the words they are printed in: one
//! spelling per release, exact only where the evidence makes it exact, `since` and the text
//! saying what the boundary says, and no `≤` at a family's first release.

use std::collections::BTreeMap;

use super::{current, exact, feature, problem, spell, Check, Problem};
use crate::matrix::boundary::{next_release, Boundary};
use crate::matrix::model::Value;
use crate::matrix::summary::{Answer, Summary, SummaryRow};
use crate::matrix::version::Version;

pub(super) fn check(s: &Summary, out: &mut Vec<Problem>) {
    two_spellings(s, out);
    for row in s.rows() {
        for a in &row.answers {
            exact_but_interval(s, row, a, &known_releases(s, &a.family), out);
            boundary_disagrees(s, row, a, out);
            at_most_at_first_release(s, row, a, out);
        }
    }
}

/// The family's real releases, when its platform.yaml lists them (for "the release after").
fn known_releases(s: &Summary, family: &str) -> Vec<Version> {
    s.family(family)
        .into_iter()
        .flat_map(|f| &f.known_releases)
        .filter_map(|r| Version::parse(r))
        .collect()
}

/// Every release text of a family (its columns, histories and boundaries) has one spelling
/// per release.
fn two_spellings(s: &Summary, out: &mut Vec<Problem>) {
    let mut seen: BTreeMap<(String, Vec<u64>), (String, String)> = BTreeMap::new();
    let mut note = |family: &str, row: &str, text: &str, out: &mut Vec<Problem>| {
        let Some(v) = exact(text) else { return };
        let mut parts = v.parts().to_vec();
        while parts.len() > 1 && parts.last() == Some(&0) {
            parts.pop();
        }
        let key = (family.to_string(), parts);
        match seen.get(&key) {
            Some((other, _)) if other != text => out.push(problem(
                Check::TwoSpellings,
                family,
                row,
                format!("{text:?} and {other:?} are one release"),
            )),
            Some(_) => {}
            None => {
                seen.insert(key, (text.to_string(), row.to_string()));
            }
        }
    };
    for f in &s.families {
        for r in &f.releases {
            note(&f.id, "releases", &r.release, out);
        }
    }
    for row in s.rows() {
        for a in &row.answers {
            let texts = a
                .history
                .iter()
                .map(|h| h.release.as_str())
                .chain(a.boundary.iter().flat_map(Boundary::releases));
            for t in texts {
                note(&a.family, &row.id, t, out);
            }
        }
    }
}

/// Whether the family's answer on `floor` can begin at `release` at the earliest: what a
/// boundary that names `floor` rests on.
fn floor_holds(s: &Summary, a: &Answer, floor: &str, release: &str) -> bool {
    feature(s, floor, &a.family)
        .and_then(|f| f.boundary.as_ref()?.earliest().and_then(exact))
        .is_some_and(|e| exact(release) == Some(e))
}

/// An exact boundary must be documented as the first (`after` absent, with a doc source
/// behind it), sit right after a release known to differ, or be the first release of the
/// row it is bounded by; and no release before it may already show the value.
fn exact_but_interval(
    s: &Summary,
    row: &SummaryRow,
    a: &Answer,
    known: &[Version],
    out: &mut Vec<Problem>,
) {
    let Some(Boundary::Exact {
        release,
        after,
        floor,
    }) = &a.boundary
    else {
        return;
    };
    let Some(b) = exact(release) else { return };
    let current = current(a);
    let fail = |why: String, out: &mut Vec<Problem>| {
        out.push(problem(Check::ExactButInterval, &a.family, &row.id, why))
    };
    let earlier_same = a
        .history
        .iter()
        .filter(|s| Some(&s.value) == current)
        .filter_map(|s| exact(&s.release))
        .find(|v| *v < b);
    if let Some(v) = earlier_same {
        fail(
            format!("printed {release} but {} already shows it", spell(&v)),
            out,
        );
    }
    let previous = a
        .history
        .iter()
        .filter(|s| Some(&s.value) != current)
        .filter_map(|s| exact(&s.release))
        .filter(|v| *v < b)
        .max();
    match (after, floor, previous) {
        (Some(p), _, _) => {
            if exact(p).is_none_or(|p| next_release(known, &p) != b) {
                fail(
                    format!("printed {release}, but after {p} it is an interval"),
                    out,
                );
            }
        }
        (None, Some(f), _) => {
            if !floor_holds(s, a, f, release) {
                fail(
                    format!("printed {release} because of {f}, which does not begin there"),
                    out,
                );
            }
        }
        (None, None, prev) => {
            let documented = !a.sources.is_empty() && a.sources.iter().any(|s| !s.is_empty());
            if !documented {
                let why = match prev {
                    Some(p) => format!(
                        "printed {release} without a source, after {} known to differ",
                        spell(&p)
                    ),
                    None => format!("printed {release} without a source"),
                };
                fail(why, out);
            }
        }
    }
}

/// `since` is the boundary as printed, the text says the same, and the boundary is what the
/// releases behind it allow: its latest release no later than the first one shown with the
/// value, the release it names as differing shown with another value, a documented first
/// release documented so by a release behind it, and `through` / `? from` said in the text.
fn boundary_disagrees(s: &Summary, row: &SummaryRow, a: &Answer, out: &mut Vec<Problem>) {
    let mut fail =
        |why: String| out.push(problem(Check::BoundaryDisagrees, &a.family, &row.id, why));
    let printed = a.boundary.as_ref().map(Boundary::text);
    if a.since != printed {
        fail(format!(
            "since {:?} but the boundary is {:?}",
            a.since, printed
        ));
    }
    if let Some(since) = &printed {
        if !a.text.contains(since.as_str()) {
            fail(format!("boundary {since} but the text says {:?}", a.text));
        }
    }
    match (&a.through, &a.unknown_from) {
        (Some(t), Some(u)) => {
            let said = a.text.contains(&format!("? from {u}"))
                && (a.text.contains(&format!("through {t}")) || a.text.contains(t.as_str()));
            if !said {
                fail(format!(
                    "known through {t} and ? from {u}, but the text says {:?}",
                    a.text
                ));
            }
        }
        (None, Some(u)) => fail(format!("? from {u} without the release it holds through")),
        _ => {}
    }
    let Some(value) = current(a) else { return };
    if *value == Value::Bool(false) && !a.text.starts_with("no") {
        fail(format!("absent, but the text says {:?}", a.text));
    }
    let Some(b) = &a.boundary else { return };
    let run: Vec<_> = a
        .history
        .iter()
        .rev()
        .take_while(|st| st.value == *value || exact(&st.release).is_none())
        .filter(|st| st.value == *value)
        .collect();
    let first_shown = run.iter().filter_map(|st| exact(&st.release)).min();
    let began: Vec<&Boundary> = run.iter().filter_map(|st| st.began.as_ref()).collect();
    if let (Some(first), Some(last)) = (first_shown, exact(b.last())) {
        let documented_earlier = began.iter().any(|d| exact(d.last()) <= Some(last.clone()));
        if last > first && !documented_earlier {
            fail(format!(
                "boundary {} but {} already shows the value",
                b.text(),
                spell(&first)
            ));
        }
    }
    if let Some(after) = match b {
        Boundary::Exact { after, .. } | Boundary::Interval { after, .. } => after.as_deref(),
        Boundary::AtMost { .. } => None,
    } {
        let differs = a
            .history
            .iter()
            .any(|st| st.release == after && st.value != *value)
            || began.iter().any(|d| d.releases().contains(&after));
        if !differs {
            fail(format!(
                "boundary {} says {after} differs, but no release behind it shows that",
                b.text()
            ));
        }
    }
    if b.documented_first() {
        let documented = began
            .iter()
            .any(|d| d.documented_first() && d.last() == b.last());
        if !documented {
            fail(format!(
                "boundary exact {} (documented as the first) while the history says {}",
                b.text(),
                began
                    .first()
                    .map_or_else(|| String::from("nothing documented"), |d| describe(d))
            ));
        }
    }
    if let (Some(f), Some(first)) = (b.floor(), b.earliest()) {
        if !floor_holds(s, a, f, first) {
            fail(format!(
                "boundary {} rests on {f}, which does not begin at {first}",
                b.text()
            ));
        }
    }
}

/// A boundary in the words of its JSON kind: `at_most 2005`, `exact 2.29`.
fn describe(b: &Boundary) -> String {
    match b {
        Boundary::Exact { release, .. } => format!("exact {release}"),
        Boundary::Interval { first, last, .. } => format!("interval {first}–{last}"),
        Boundary::AtMost { release } => format!("at_most {release}"),
    }
}

/// `≤R` where R is the family's first `posix_spawn` release: nothing of the family can be
/// older, so the boundary is R itself (or a floor), never "at most".
fn at_most_at_first_release(s: &Summary, row: &SummaryRow, a: &Answer, out: &mut Vec<Problem>) {
    let Some(Boundary::AtMost { release }) = &a.boundary else {
        return;
    };
    if row.id == "functions.posix_spawn" {
        return;
    }
    let first = feature(s, "functions.posix_spawn", &a.family)
        .and_then(|f| f.boundary.as_ref()?.earliest().and_then(exact));
    if first.is_some() && first == exact(release) {
        out.push(problem(
            Check::MisleadingWords,
            &a.family,
            &row.id,
            format!("≤{release} at the family's first posix_spawn release"),
        ));
    }
}
