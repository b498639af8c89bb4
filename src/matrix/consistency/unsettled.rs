//! Ranged first releases against their family's reasons: a cell whose first release is a
//! range (`5.2–5.7`) or `≤` says why the history cannot settle it (the family's `unsettled`,
//! stated once in its platform.yaml), and a reason names only rows still ranged (issue 29,
//! item 5).

use super::{problem, Check, Problem};
use crate::matrix::summary::{Answer, Summary};

pub(super) fn check(s: &Summary, out: &mut Vec<Problem>) {
    for row in s.rows() {
        for f in &s.families {
            let answer = row.answers.iter().find(|a| a.family == f.id);
            let boundary = answer.and_then(|a| a.boundary.as_ref());
            match (answer.and_then(Answer::range), f.unsettled_why(&row.id)) {
                (Some(b), None) => out.push(problem(
                    Check::RangeWithoutReason,
                    &f.id,
                    &row.id,
                    format!(
                        "first release {} is a range with no reason: settle it from the \
                         history, or say why it cannot be in the family's `unsettled`",
                        b.text()
                    ),
                )),
                (None, Some(why)) => out.push(problem(
                    Check::UnsettledButExact,
                    &f.id,
                    &row.id,
                    format!(
                        "has {} first release, but the family's `unsettled` says {why:?}",
                        match boundary {
                            Some(b) => format!("the exact {}", b.text()),
                            None => String::from("no"),
                        }
                    ),
                )),
                _ => {}
            }
        }
    }
}
