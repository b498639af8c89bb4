//! The fd mapping plan: which parent fd becomes which child fd, ordered so that overlapping
//! and permuted mappings (`3→4` with `4→3`) come out right.
//!
//! A source that is also some mapping's target is first copied, close-on-exec, to a number at
//! or above [`FdPlan::high`] (above every fd the plan names), and mapped from that copy; every
//! other source is mapped directly. So no `dup2` can overwrite a source still needed, and a
//! `dup2` never has equal source and target (which would leave `FD_CLOEXEC` set).

use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};

pub(crate) use crate::child_side::FdMove;

/// A close-on-exec copy of `fd` at the lowest free number `>= min`, made in the parent.
/// `EINVAL` (`min` past the fd limit, because a target is) becomes `EBADF`, the error a
/// `dup2` to such a target gives, so every strategy reports the same errno.
pub(crate) fn copy_above(fd: RawFd, min: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: fcntl on an fd the caller keeps open; the copy is new.
    match unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, min) } {
        -1 => {
            let e = io::Error::last_os_error();
            Err(match e.raw_os_error() {
                Some(libc::EINVAL) => io::Error::from_raw_os_error(libc::EBADF),
                _ => e,
            })
        }
        // SAFETY: a new fd nobody else owns.
        copy => Ok(unsafe { OwnedFd::from_raw_fd(copy) }),
    }
}

/// The mappings of one spawn, in the order they are applied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FdPlan {
    pub moves: Vec<FdMove>,
    /// Lowest number a temporary copy may take: one above every fd the plan names.
    pub high: RawFd,
}

impl FdPlan {
    /// A plan for `(child fd, parent fd)` pairs; child fds must be distinct and non-negative.
    pub(crate) fn new(pairs: &[(RawFd, RawFd)]) -> FdPlan {
        let high = pairs
            .iter()
            .map(|&(d, s)| d.max(s))
            .max()
            .map_or(0, |m| m.saturating_add(1));
        let moves = pairs
            .iter()
            .map(|&(dst, src)| {
                let via_tmp = pairs.iter().any(|&(d, _)| d == src);
                FdMove {
                    src,
                    dst,
                    via_tmp,
                    tmp: src,
                }
            })
            .collect();
        FdPlan { moves, high }
    }

    /// Whether some mapping writes to `fd` in the child.
    pub(crate) fn is_target(&self, fd: RawFd) -> bool {
        self.moves.iter().any(|m| m.dst == fd)
    }

    /// Simulates the plan on a table of `fd -> open file id`, as the child would run it. Used
    /// by tests to check that every permutation ends where it should.
    #[cfg(test)]
    fn simulate(&self, table: &mut std::collections::BTreeMap<RawFd, u32>) {
        let mut moves = self.moves.clone();
        let mut next = self.high;
        for m in moves.iter_mut() {
            if m.via_tmp {
                while table.contains_key(&next) {
                    next += 1;
                }
                let file = table[&m.src];
                table.insert(next, file);
                m.tmp = next;
            }
        }
        for m in &moves {
            assert_ne!(m.tmp, m.dst, "dup2 with equal fds keeps FD_CLOEXEC");
            let file = table[&m.tmp];
            table.insert(m.dst, file);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use std::collections::BTreeMap;

    #[rstest]
    #[case(&[])]
    #[case(&[(0, 5)])]
    #[case(&[(3, 4), (4, 3)])]
    #[case(&[(0, 1), (1, 2), (2, 0)])]
    #[case(&[(3, 3)])]
    #[case(&[(3, 3), (5, 3)])]
    #[case(&[(1, 7), (2, 7), (7, 1)])]
    #[case(&[(10, 0), (0, 10), (1, 10)])]
    fn every_target_gets_its_source(#[case] pairs: &[(RawFd, RawFd)]) {
        let plan = FdPlan::new(pairs);
        let mut table: BTreeMap<RawFd, u32> = BTreeMap::new();
        for &(_, s) in pairs {
            table.insert(s, s as u32 + 100);
        }
        plan.simulate(&mut table);
        for &(d, s) in pairs {
            assert_eq!(
                table[&d],
                s as u32 + 100,
                "child fd {d} should be parent fd {s}"
            );
        }
        assert!(pairs.iter().all(|&(d, s)| plan.high > d && plan.high > s));
    }
}
