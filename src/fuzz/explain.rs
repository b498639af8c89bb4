//! Divergences that documented libc differences explain. Each rule names the conformance case
//! that records the difference per platform; anything no rule explains is reported as a bug.

use super::model::{Action, Sequence};
use super::outcome::{Observation, Outcome};
use super::reference::{first_refusal, Refusal};

/// A documented difference between the reference (POSIX.1-2024 as written) and a libc.
/// Read back (from a worker's summary) by its `id`, which must name one of [`RULES`].
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

pub const OPEN_WITHOUT_CLOSING_TARGET: Known = Known {
    id: "open-without-closing-target",
    case: "fa-open-replaces-target",
    why: "the libc's addopen does not close the target fd before open() (musl), so an \
          O_CLOEXEC open onto an fd that is already open lands elsewhere and is dup2'd into \
          place without FD_CLOEXEC: the child keeps it, where POSIX's close-then-open would \
          have it closed at exec",
};

/// Every rule, for reading a [`Known`] back by id.
pub const RULES: [Known; 3] = [
    ADD_NO_UPPER_BOUND,
    ADDFCHDIR_UNCHECKED,
    OPEN_WITHOUT_CLOSING_TARGET,
];

/// A serialised [`Known`]: only the id matters, the rest is the rule's own text.
#[derive(serde::Deserialize)]
struct KnownId {
    id: String,
}

impl<'de> serde::Deserialize<'de> for Known {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Known, D::Error> {
        let k = KnownId::deserialize(d)?;
        RULES.into_iter().find(|r| r.id == k.id).ok_or_else(|| {
            serde::de::Error::custom(format!("no explanation rule is called {:?}", k.id))
        })
    }
}

/// Whether `got` differs from `reference` only in fds that an `O_CLOEXEC` open targets.
fn only_cloexec_open_targets_differ(seq: &Sequence, reference: &Outcome, got: &Outcome) -> bool {
    let (Outcome::Ok(r), Outcome::Ok(g)) = (reference, got) else {
        return false;
    };
    let targets: Vec<i64> = seq
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::Open {
                fd, cloexec: true, ..
            } => Some(i64::from(*fd)),
            _ => None,
        })
        .collect();
    let strip = |o: &Observation| {
        let mut o = o.clone();
        o.fds.retain(|f| !targets.contains(&f.fd));
        o
    };
    !targets.is_empty() && strip(r) == strip(g)
}

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
    only_cloexec_open_targets_differ(seq, reference, got).then_some(OPEN_WITHOUT_CLOSING_TARGET)
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;
    use crate::fuzz::model::{Attrs, Node, OpenMode, PathRef};
    use crate::fuzz::outcome::{FdView, Relation};

    fn seq(actions: Vec<Action>) -> Sequence {
        Sequence {
            inherit: Vec::new(),
            actions,
            attrs: Attrs::default(),
        }
    }

    fn open_cloexec(fd: i32) -> Action {
        Action::Open {
            fd,
            path: PathRef::Fixture(Node::FileA),
            mode: OpenMode::Read,
            cloexec: true,
        }
    }

    fn ok(fds: &[i64]) -> Outcome {
        let view = |fd| FdView {
            fd,
            cloexec: false,
            access: String::from("r"),
            append: false,
            nonblock: false,
            kind: String::from("reg"),
            what: String::from("$FIX/a"),
            offset: Some(0),
        };
        Outcome::Ok(Box::new(Observation {
            fds: fds.iter().copied().map(view).collect(),
            cwd: None,
            cwd_errno: None,
            sigmask: Vec::new(),
            ignored: Vec::new(),
            handled: Vec::new(),
            pgid: Relation::Parent,
            sid: Relation::Parent,
        }))
    }

    #[rstest]
    #[case::musl_keeps_the_target(vec![open_cloexec(0)], ok(&[1]), ok(&[0, 1]), Some("open-without-closing-target"))]
    #[case::other_fd_differs(vec![open_cloexec(0)], ok(&[1]), ok(&[1, 5]), None)]
    #[case::no_cloexec_open(vec![Action::Close { fd: 0 }], ok(&[1]), ok(&[0, 1]), None)]
    #[case::glibc_addfchdir(vec![Action::Fchdir { fd: -1 }], Outcome::add(libc::EBADF), Outcome::returned(libc::EBADF), Some("addfchdir-unchecked"))]
    #[case::add_refused_by_both(vec![Action::Close { fd: -1 }], Outcome::add(libc::EBADF), Outcome::add(libc::EBADF), None)]
    fn rules(
        #[case] actions: Vec<Action>,
        #[case] reference: Outcome,
        #[case] got: Outcome,
        #[case] expected: Option<&str>,
    ) {
        assert_eq!(
            explain(&seq(actions), &reference, &got).map(|k| k.id),
            expected
        );
    }
}
