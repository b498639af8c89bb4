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
/// and the dup2 actions, so the mapped fds are in place when they run.
pub(super) fn add_actions(fa: &mut FileActions, c: Closer, close: &ClosePlan) -> io::Result<()> {
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
            // stdio left as the parent's is named only here.
            for fd in inherited(close) {
                fa.add_fd(inherit, fd)?;
            }
            Ok(())
        }
    }
}

/// The fds an `addinherit_np` must name: stdio and every kept fd.
fn inherited(close: &ClosePlan) -> impl Iterator<Item = RawFd> + '_ {
    (0..3).chain(close.keep.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(&[], &[0, 1, 2])]
    #[case(&[7], &[0, 1, 2, 7])]
    #[case(&[9, 4], &[0, 1, 2, 4, 9])]
    fn cloexec_default_inherits_stdio_and_kept_fds(#[case] keep: &[RawFd], #[case] want: &[RawFd]) {
        let plan = ClosePlan::new(keep.iter().copied());
        assert_eq!(inherited(&plan).collect::<Vec<_>>(), want);
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
