//! What a forked child runs: sends its pidfd when asked (`pidfd_send`), prepares and execs,
//! or writes the errno to the report pipe and exits 127. The parent's side is
//! `strategies/fork/`.

use std::os::fd::RawFd;

use super::calls;
use super::ids::ChildIds;
use super::ChildView;

/// The forked child's whole life until `execve`. Never returns.
///
/// # Safety
/// Must run in the child `fork` just made, with `view` prepared by the parent and `report`
/// the child's end of the report pipe (a pidfd channel when `with_pidfd`).
pub(crate) unsafe fn fork_child(view: &ChildView, report: RawFd, with_pidfd: bool) -> ! {
    if with_pidfd {
        super::pidfd_send::send_own(report);
    }
    let e = super::run::<ChildIds>(view);
    calls::write(
        report,
        (&e as *const libc::c_int).cast(),
        std::mem::size_of::<libc::c_int>(),
    );
    calls::exit(127)
}
