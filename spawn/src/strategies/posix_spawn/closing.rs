//! `Command::close_fds` as file actions: the libc's `addclosefrom_np` where it has one
//! (glibc 2.34, FreeBSD 13.1/13.2+, illumos), else Apple's `POSIX_SPAWN_CLOEXEC_DEFAULT`, under
//! which the child keeps only the fds the file actions name, stdio and the mapped ones being
//! named with `addinherit_np` (the route libuv and lighttpd take on macOS). Without either,
//! the strategy refuses the request.

use std::io;
use std::os::fd::RawFd;

use super::actions::FileActions;
use crate::plan::close_plan::ClosePlan;
use crate::sys::{flags, spawn_ext};

/// How this libc closes the fds a spawn does not hand over.
#[derive(Clone, Copy)]
pub(super) enum Closer {
    /// `posix_spawn_file_actions_addclosefrom_np`.
    CloseFrom(spawn_ext::AddFdFn),
    /// The `POSIX_SPAWN_CLOEXEC_DEFAULT` attribute flag, with `addinherit_np` for each fd kept.
    CloexecDefault {
        inherit: spawn_ext::AddFdFn,
        flag: libc::c_short,
    },
}

/// This libc's way, or `None` when `posix_spawn` cannot close other fds here.
pub(super) fn closer() -> Option<Closer> {
    if let Some(f) = spawn_ext::addclosefrom() {
        return Some(Closer::CloseFrom(f.func));
    }
    let flag = flags::by_name("POSIX_SPAWN_CLOEXEC_DEFAULT")?.value;
    let inherit = spawn_ext::addinherit()?.func;
    Some(Closer::CloexecDefault { inherit, flag })
}

/// The attribute flag the closing needs (`0` for `addclosefrom_np`).
pub(super) fn attr_flag(c: Closer) -> libc::c_short {
    match c {
        Closer::CloseFrom(_) => 0,
        Closer::CloexecDefault { flag, .. } => flag,
    }
}

/// The actions that leave the child stdio and `close.keep` only. They come after the chdir
/// and the dup2 actions, so the mapped fds are in place when they run. `stdio_open`: which
/// of fds 0, 1, 2 the child has (open in the parent, or a dup2 target).
pub(super) fn add_actions(
    fa: &mut FileActions,
    c: Closer,
    close: &ClosePlan,
    stdio_open: [bool; 3],
) -> io::Result<()> {
    match c {
        Closer::CloseFrom(closefrom) => {
            // Each fd between the kept ones (closing an fd that is not open is not an error
            // in glibc or FreeBSD), then everything above the highest kept one.
            let mut from = 3;
            for &keep in &close.keep {
                for fd in from..keep {
                    fa.close(fd)?;
                }
                from = keep + 1;
            }
            fa.add_fd(closefrom, from)
        }
        Closer::CloexecDefault { inherit, .. } => {
            // A dup2 target is named by its action already; naming it again is harmless, and
            // stdio left as the parent's is named only here, when it is open: Apple's
            // `addinherit_np` of a closed fd fails the spawn (`EBADF`), and a daemon may well
            // have closed its stdio.
            for fd in inherited(close, stdio_open) {
                fa.add_fd(inherit, fd)?;
            }
            Ok(())
        }
    }
}

/// The fds an `addinherit_np` must name: the child's open stdio and every kept fd.
fn inherited(close: &ClosePlan, stdio_open: [bool; 3]) -> impl Iterator<Item = RawFd> + '_ {
    (0..3)
        .filter(move |&fd| stdio_open[fd as usize])
        .chain(close.keep.iter().copied())
}

/// Which of fds 0, 1, 2 the child has: a target of the plan, or open in the parent.
pub(super) fn stdio_open(targets: impl Iterator<Item = RawFd> + Clone) -> [bool; 3] {
    [0, 1, 2].map(|fd| {
        // SAFETY: a flag query on an fd number.
        targets.clone().any(|t| t == fd) || unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(&[], [true; 3], &[0, 1, 2])]
    #[case(&[7], [true; 3], &[0, 1, 2, 7])]
    #[case(&[9, 4], [true; 3], &[0, 1, 2, 4, 9])]
    // A daemon with its stdio closed: only what is open is named (naming fd 0 failed it).
    #[case(&[], [false; 3], &[])]
    #[case(&[5], [false, true, false], &[1, 5])]
    fn cloexec_default_inherits_open_stdio_and_kept_fds(
        #[case] keep: &[RawFd],
        #[case] stdio: [bool; 3],
        #[case] want: &[RawFd],
    ) {
        let plan = ClosePlan::new(keep.iter().copied());
        assert_eq!(inherited(&plan, stdio).collect::<Vec<_>>(), want);
    }

    /// A stdio fd the plan maps onto counts as open even when the parent has it closed.
    #[test]
    fn a_mapped_stdio_target_is_open_in_the_child() {
        let open = stdio_open([0, 1, 2].into_iter());
        assert_eq!(open, [true; 3]);
    }

    /// Where the libc has neither route, the strategy must refuse; where it has one, it is
    /// the one `closer` picks (Apple has no `addclosefrom_np`, so it gets the flag).
    #[rstest]
    fn closer_matches_the_libc() {
        let c = closer();
        if spawn_ext::addclosefrom().is_some() {
            assert!(matches!(c, Some(Closer::CloseFrom(_))));
        } else if cfg!(target_vendor = "apple") {
            assert!(matches!(c, Some(Closer::CloexecDefault { .. })));
        } else {
            assert!(c.is_none() || spawn_ext::addinherit().is_some());
        }
    }
}
