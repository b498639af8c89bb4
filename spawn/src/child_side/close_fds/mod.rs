//! Closing every fd the parent did not hand over (`Command::close_fds`), like CPython's
//! `close_fds=True`: in the child, right before `execve`, every fd from 3 up is closed except
//! the ones the fd plan wrote (and, for `fork`, the errno report pipe, which is close-on-exec
//! anyway). The parent prepares the sorted list of fds to keep; the child only reads it.
//!
//! How, per platform: Linux uses `close_range(2)` (5.9+) on each gap between kept fds, else
//! lists `/proc/self/fd` with `getdents64` into a buffer on the child's stack, else closes
//! every number below the fd limit; FreeBSD uses `close_range(2)` where its libc has it
//! (looked up at run time, in the parent: `platform/freebsd.rs`), else the bounded loop; elsewhere the bounded loop.
//! `CLOSE_RANGE_CLOEXEC` (5.11+) is not used: the child has its own fd table (no
//! `CLONE_FILES`), so closing now is equivalent to closing at exec, and works from 5.9 on.
//! The `posix_spawn` strategy uses `posix_spawn_file_actions_addclosefrom_np` instead (see
//! `strategies/posix_spawn/`). The sorted list to keep is the plan's
//! (`plan/close_plan.rs`).

use std::os::fd::RawFd;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux::{close_gap, close_listed};

#[cfg(target_os = "freebsd")]
mod freebsd;
#[cfg(target_os = "freebsd")]
use freebsd::{close_gap, close_listed};

#[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
mod other;
#[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
use other::{close_gap, close_listed};

/// The ranges `[lo, hi]` (inclusive) of fds 3 and up that `keep` leaves out, in order; the
/// last one ends at `RawFd::MAX`.
pub(crate) fn gaps(keep: &[RawFd]) -> impl Iterator<Item = (RawFd, RawFd)> + '_ {
    let mut lo: Option<RawFd> = Some(3);
    let mut rest = keep.iter();
    std::iter::from_fn(move || loop {
        let start = lo?;
        match rest.next() {
            Some(&k) if k < start => continue,
            Some(&k) => {
                lo = k.checked_add(1);
                if k > start {
                    return Some((start, k - 1));
                }
            }
            None => {
                lo = None;
                return Some((start, RawFd::MAX));
            }
        }
    })
}

/// Closes every fd from 3 up that `keep` (sorted) does not list. Errors are ignored: an fd
/// that was not open is what the caller wants.
///
/// # Safety
/// Async-signal-safe: runs in the child between its creation and `execve`, possibly sharing
/// the parent's memory. Allocates nothing and cannot panic.
pub(crate) unsafe fn close_others(keep: &[RawFd], limit: RawFd) {
    for (lo, hi) in gaps(keep) {
        if !close_gap(lo, hi) {
            // No range call here: close what the fd listing names, else every number below
            // the limit.
            if !close_listed(keep) {
                close_below(keep, limit);
            }
            return;
        }
    }
}

/// Closes every fd in `3..limit` that `keep` does not list.
///
/// # Safety
/// As [`close_others`].
unsafe fn close_below(keep: &[RawFd], limit: RawFd) {
    for fd in 3..limit {
        if keep.binary_search(&fd).is_err() {
            super::calls::close(fd);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::close_plan::ClosePlan;
    use rstest::rstest;

    #[rstest]
    #[case(&[], &[(3, RawFd::MAX)])]
    #[case(&[3], &[(4, RawFd::MAX)])]
    #[case(&[3, 4, 5], &[(6, RawFd::MAX)])]
    #[case(&[10], &[(3, 9), (10 + 1, RawFd::MAX)])]
    #[case(&[4, 7, 8, 20], &[(3, 3), (5, 6), (9, 19), (21, RawFd::MAX)])]
    #[case(&[RawFd::MAX], &[(3, RawFd::MAX - 1)])]
    fn gaps_cover_everything_not_kept(#[case] keep: &[RawFd], #[case] want: &[(RawFd, RawFd)]) {
        assert_eq!(gaps(keep).collect::<Vec<_>>(), want);
    }

    /// How the child closes fds.
    #[derive(Clone, Copy, Debug)]
    enum Way {
        /// `close_others`: the range call where the platform has one.
        Others,
        /// The fd listing (Linux: `/proc/self/fd`); a platform without one closes nothing.
        Listed,
        /// The bounded loop.
        Below,
    }

    /// In a forked child (this test process has other threads and fds the harness needs):
    /// opens six fds, closes with `way` keeping two of them, and exits 0 only if exactly the
    /// kept ones (and stdio) are still open among them.
    #[rstest]
    #[case(Way::Others)]
    #[case(Way::Listed)]
    #[case(Way::Below)]
    fn closes_all_but_kept(#[case] way: Way) {
        let fds: Vec<RawFd> = (0..6)
            // SAFETY: open of a constant path; the fds are closed by the child's exit and below.
            .map(|_| unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY) })
            .collect();
        assert!(fds.iter().all(|&fd| fd > 2));
        let keep = ClosePlan::new([fds[1], fds[4]]);
        // The listing closes only where there is one: Linux with /proc mounted (a bare root
        // has none, and then close_others falls back to the bounded loop).
        let proc_fd = cfg!(target_os = "linux") && std::path::Path::new("/proc/self/fd").is_dir();
        let listed = proc_fd || !matches!(way, Way::Listed);
        if cfg!(target_os = "linux") && !proc_fd && matches!(way, Way::Listed) {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: closes_all_but_kept(Listed): no /proc/self/fd to list (checked instead \
                 that the listing closes nothing)"
            );
        }
        // SAFETY: the child only makes async-signal-safe calls on data prepared here.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe {
                match way {
                    Way::Others => close_others(&keep.keep, keep.limit),
                    Way::Listed => drop(close_listed(&keep.keep)),
                    Way::Below => close_below(&keep.keep, keep.limit),
                }
                let mut ok = libc::fcntl(0, libc::F_GETFD) != -1;
                for &fd in &fds {
                    let open = libc::fcntl(fd, libc::F_GETFD) != -1;
                    let want = keep.keep.binary_search(&fd).is_ok() || !listed;
                    ok &= open == want;
                }
                libc::_exit(if ok { 0 } else { 1 });
            }
        }
        let mut status = 0;
        // SAFETY: reaping our own child.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        for fd in fds {
            // SAFETY: closing the fds opened above.
            unsafe { libc::close(fd) };
        }
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "{way:?}: {status}"
        );
    }
}
