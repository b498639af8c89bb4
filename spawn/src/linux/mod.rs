//! Linux strategies that create the child themselves and share the parent's memory until it
//! execs: `clone(CLONE_VM|CLONE_VFORK)` and `clone3` with `CLONE_CLEAR_SIGHAND`; and how a
//! forked child hands over its pidfd (`pidfd_channel`).

mod clone3;
mod clone_vfork;
pub(super) mod pidfd_channel;
mod stack;
mod vm_child;

pub(super) use clone3::{clone3, clone3_maybe_supported, HAS_TRAMPOLINE as CLONE3_TRAMPOLINE};
pub(super) use clone_vfork::clone_vfork;

/// Why neither clone strategy may run in this process at all, if so: glibc's `clone` wrapper
/// before 2.25 makes the child write the parent thread's PID/TID cache (clone3 never calls
/// it, so only `clone_vfork` is affected); and where this crate does not declare the kernel's
/// `struct sigaction` the child could only reach libc `sigaction`, which must not run in a
/// `CLONE_VM` child (musl's takes a lock).
pub(super) fn clone_vfork_forbidden() -> Option<&'static str> {
    if crate::glibc_version::older_than(2, 25) {
        return Some("run: glibc's clone before 2.25 overwrites the parent's PID/TID cache");
    }
    vm_child_forbidden()
}

/// As [`clone_vfork_forbidden`], for clone3; also where this crate has no trampoline for the
/// architecture (the kernel may well have clone3: `caps` reports the two apart).
pub(super) fn clone3_forbidden() -> Option<&'static str> {
    if !clone3::HAS_TRAMPOLINE {
        return Some(NO_TRAMPOLINE);
    }
    vm_child_forbidden()
}

/// Why a forced `Clone3` fails on an architecture this crate has no trampoline for.
pub(super) const NO_TRAMPOLINE: &str =
    "run: this crate has no clone3 support on this architecture (no trampoline)";

fn vm_child_forbidden() -> Option<&'static str> {
    (!crate::os::RAW_SIGACTION)
        .then_some("run: the kernel's struct sigaction is not declared for this architecture")
}

/// Whether `clone(CLONE_VM|CLONE_VFORK)` may run and works here (probed once).
pub(super) fn clone_vfork_supported() -> bool {
    clone_vfork_forbidden().is_none() && clone_vfork::works()
}

/// Whether clone3 may run and works here (probed once).
pub(super) fn clone3_supported() -> bool {
    clone3_forbidden().is_none() && clone3::clone3_supported()
}
