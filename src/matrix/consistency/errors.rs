//! Error rows against the function rows their case uses: a value before the function, an
//! `unsupported` while it is there, a value shown as current after it changed, and words
//! that read as if the case once ran.

use super::{current, exact, feature, problem, section, spell, supported, Check, Problem};
use crate::matrix::model::Value;
use crate::matrix::summary::{first_change_after, Answer, Summary, SummaryRow};

/// The function rows a case row relies on; `posix_spawn` when the summary does not say.
fn uses(row: &SummaryRow) -> Vec<String> {
    match row.uses.is_empty() {
        true => vec![String::from("functions.posix_spawn")],
        false => row.uses.clone(),
    }
}

/// The functions a case needs besides the spawn call itself.
fn extra(u: &str) -> bool {
    !matches!(u, "functions.posix_spawn" | "functions.posix_spawnp")
}

pub(super) fn check(s: &Summary, out: &mut Vec<Problem>) {
    let errors = section(s, "errors");
    for row in &errors {
        let uses = uses(row);
        for a in &row.answers {
            for u in &uses {
                let Some(f) = feature(s, u, &a.family) else {
                    continue;
                };
                error_before_function(row, a, u, f, out);
                unsupported_while_present(row, a, u, f, out);
                unsupported_since_for_an_absent_function(row, a, u, f, out);
            }
            stale_value_as_current(s, row, a, &uses, out);
        }
    }
    for fam in &s.families {
        let has_errors = errors
            .iter()
            .any(|r| r.answers.iter().any(|a| a.family == fam.id));
        if has_errors && feature(s, "functions.posix_spawn", &fam.id).is_none() {
            out.push(problem(
                Check::ErrorsWithoutPosixSpawn,
                &fam.id,
                "functions.posix_spawn",
                "error rows are known, posix_spawn is ?".into(),
            ));
        }
    }
}

/// The error row's earliest supported value is older than the function's date.
fn error_before_function(
    row: &SummaryRow,
    a: &Answer,
    u: &str,
    f: &Answer,
    out: &mut Vec<Problem>,
) {
    let earliest = a
        .history
        .iter()
        .filter(|s| supported(&s.value))
        .filter_map(|s| exact(&s.release))
        .chain(
            a.boundary
                .as_ref()
                .filter(|_| a.history.last().is_some_and(|s| supported(&s.value)))
                .and_then(|b| exact(b.last())),
        )
        .min();
    let Some(earliest) = earliest else { return };
    let dated = f.boundary.as_ref().and_then(|b| exact(b.last()));
    let absent = current(f) == Some(&Value::Bool(false));
    match dated {
        Some(d) if earliest < d => out.push(problem(
            Check::ErrorBeforeFunction,
            &a.family,
            &row.id,
            format!(
                "shows a value at {} but {u} is dated {}",
                spell(&earliest),
                f.text
            ),
        )),
        None if absent && a.history.last().is_some_and(|s| supported(&s.value)) => {
            out.push(problem(
                Check::ErrorBeforeFunction,
                &a.family,
                &row.id,
                format!("shows {} but {u} is absent", a.text),
            ))
        }
        _ => {}
    }
}

/// `unsupported` as the current answer, while the function is there now.
fn unsupported_while_present(
    row: &SummaryRow,
    a: &Answer,
    u: &str,
    f: &Answer,
    out: &mut Vec<Problem>,
) {
    // `unsupported` is about the extra functions a case needs, not the spawn call itself.
    if !extra(u) {
        return;
    }
    let unsupported = a.through.is_none() && current(a) == Some(&Value::Text("unsupported".into()));
    if unsupported && f.boundary.is_some() {
        out.push(problem(
            Check::UnsupportedWhilePresent,
            &a.family,
            &row.id,
            format!("{} while {u} is {}", a.text, f.text),
        ));
    }
}

/// "unsupported since ≤X" (or any wording but `no …`) for a case whose function no release
/// read had: it reads as if the case ran before X.
fn unsupported_since_for_an_absent_function(
    row: &SummaryRow,
    a: &Answer,
    u: &str,
    f: &Answer,
    out: &mut Vec<Problem>,
) {
    let never = !f.history.is_empty() && f.history.iter().all(|s| s.value == Value::Bool(false));
    let unsupported = current(a) == Some(&Value::Text("unsupported".into()));
    if extra(u) && never && unsupported && (!a.text.starts_with("no ") || a.boundary.is_some()) {
        out.push(problem(
            Check::MisleadingWords,
            &a.family,
            &row.id,
            format!("{:?} for a case whose {u} no release read had", a.text),
        ));
    }
}

/// A value shown as current for a release at which a function the case uses changed, while
/// the case has no evidence there: it must say `through R; ? from C`.
fn stale_value_as_current(
    s: &Summary,
    row: &SummaryRow,
    a: &Answer,
    uses: &[String],
    out: &mut Vec<Problem>,
) {
    let Some(change) = first_change_after(a, uses, section(s, "features").into_iter()) else {
        return;
    };
    let said = a.through.is_some() && a.unknown_from.as_deref() == Some(change.as_str());
    if !said {
        out.push(problem(
            Check::StaleValueAsCurrent,
            &a.family,
            &row.id,
            format!(
                "{:?} is shown as current, but a function the case uses changes at {change} and the row has no evidence there",
                a.text
            ),
        ));
    }
}
