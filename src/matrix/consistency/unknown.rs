//! `?` cells against their family's reasons: a cell with no answer says why nothing is known
//! (the family's `unread`, stated once in its platform.yaml, or the sandbox profile's rows no
//! column ran), and a reason names only rows that are still `?` (issue 29, item 7).

use super::{problem, Check, Problem};
use crate::matrix::summary::{has_cell, Summary};

pub(super) fn check(s: &Summary, out: &mut Vec<Problem>) {
    for row in s.rows() {
        for f in s.families.iter().filter(|f| has_cell(&f.id, &row.id)) {
            let answered = row.answers.iter().any(|a| a.family == f.id);
            match (answered, f.unread_why(&row.id)) {
                (false, None) => out.push(problem(
                    Check::UnknownWithoutReason,
                    &f.id,
                    &row.id,
                    String::from(
                        "prints `?` with no reason: state what was tried and why it does not \
                         answer in the family's `unread`",
                    ),
                )),
                (true, Some(why)) => out.push(problem(
                    Check::UnreadButAnswered,
                    &f.id,
                    &row.id,
                    format!("has an answer, but the family's `unread` says {why:?}"),
                )),
                _ => {}
            }
        }
    }
}
