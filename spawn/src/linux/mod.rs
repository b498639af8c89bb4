//! Linux strategies that create the child themselves and share the parent's memory until it
//! execs: `clone(CLONE_VM|CLONE_VFORK)` and `clone3` with `CLONE_CLEAR_SIGHAND`.

mod clone3;
mod clone_vfork;
mod stack;
mod vm_child;

pub(super) use clone3::{clone3, clone3_maybe_supported, clone3_supported};
pub(super) use clone_vfork::clone_vfork;

/// `clone(CLONE_VM|CLONE_VFORK)` exists on every Linux kernel this crate runs on, but glibc's
/// `clone` wrapper before 2.25 makes the child write the parent thread's PID/TID cache.
pub(super) fn clone_vfork_supported() -> bool {
    !crate::glibc_version::older_than(2, 25)
}
