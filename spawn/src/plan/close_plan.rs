//! What the child needs to close every fd the parent did not hand over
//! (`Command::close_fds`), prepared in the parent: the sorted fds to keep and the fd limit.
//! The closing itself is the child's (`child_side/close_fds/`).

use std::os::fd::RawFd;

/// What the child needs to close the other fds, prepared in the parent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClosePlan {
    /// Fds 3 and up that stay open, ascending, no duplicates.
    pub keep: Vec<RawFd>,
    /// One above the highest fd the bounded fallback loop closes (the soft fd limit).
    pub limit: RawFd,
}

impl ClosePlan {
    /// A plan keeping `keep` (fds below 3 are ignored: stdio always stays).
    pub(crate) fn new(keep: impl IntoIterator<Item = RawFd>) -> ClosePlan {
        let mut keep: Vec<RawFd> = keep.into_iter().filter(|&fd| fd > 2).collect();
        keep.sort_unstable();
        keep.dedup();
        crate::platform::look_up_close_range();
        ClosePlan {
            keep,
            limit: fd_limit(),
        }
    }

    /// Also keeps `fd` (the `fork` strategy's report pipe).
    pub(crate) fn keep_also(&mut self, fd: RawFd) {
        if fd > 2 {
            if let Err(at) = self.keep.binary_search(&fd) {
                self.keep.insert(at, fd);
            }
        }
    }
}

/// The soft `RLIMIT_NOFILE` (what `sysconf(_SC_OPEN_MAX)` reports), capped at 2^20 when
/// unlimited, for the last-resort loop.
fn fd_limit() -> RawFd {
    const CAP: RawFd = 1 << 20;
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) };
    RawFd::try_from(n)
        .ok()
        .filter(|&n| n > 0)
        .map_or(CAP, |n| n.min(CAP))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(vec![9, 1, 4, 9, 2, 3], vec![3, 4, 9])]
    #[case(vec![], vec![])]
    fn plan_keeps_sorted_fds_above_stdio(#[case] given: Vec<RawFd>, #[case] want: Vec<RawFd>) {
        let mut plan = ClosePlan::new(given);
        assert_eq!(plan.keep, want);
        plan.keep_also(5);
        plan.keep_also(4);
        plan.keep_also(0);
        let mut want = want;
        want.extend([4, 5]);
        want.sort_unstable();
        want.dedup();
        assert_eq!(plan.keep, want);
        assert!(plan.limit > 2);
    }
}
