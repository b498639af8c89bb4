//! Divergences that documented libc differences explain. Each rule names the conformance case
//! that records the difference per platform; anything no rule explains is reported as a bug.

use super::model::{Action, Sequence};
use super::outcome::Outcome;
use super::reference::{first_refusal, Refusal};

/// A documented difference between the reference (POSIX.1-2024 as written) and a libc.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Known {
    /// Short stable id, used in summaries.
    pub id: &'static str,
    /// The conformance case that records this difference per platform.
    pub case: &'static str,
    pub why: &'static str,
}

pub const ADD_NO_UPPER_BOUND: Known = Known {
    id: "add-no-upper-bound",
    case: "fa-add-ebadf",
    why: "the libc checks only fd < 0 when an action is added (musl, FreeBSD, bionic); the \
          reference also refuses fd >= OPEN_MAX as POSIX's ERRORS section allows",
};

pub const ADDFCHDIR_UNCHECKED: Known = Known {
    id: "addfchdir-unchecked",
    case: "chdir-api-names",
    why: "glibc's posix_spawn_file_actions_addfchdir_np does not check its fd at all, so a \
          negative fd fails only in the child",
};

/// The rule that explains `got` differing from `reference` for `seq`, if one does.
pub fn explain(seq: &Sequence, reference: &Outcome, got: &Outcome) -> Option<Known> {
    let refusal = first_refusal(seq);
    if let (Some((_, action, why)), Outcome::Add(_)) = (&refusal, reference) {
        if matches!(got, Outcome::Add(_)) {
            return None;
        }
        return match (action, why) {
            (_, Refusal::AboveOpenMax) => Some(ADD_NO_UPPER_BOUND),
            (Action::Fchdir { .. }, Refusal::Negative) => Some(ADDFCHDIR_UNCHECKED),
            _ => None,
        };
    }
    None
}
