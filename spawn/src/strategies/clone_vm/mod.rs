//! The Linux strategies that create the child themselves and share the parent's memory until
//! it execs: `clone3` with `CLONE_CLEAR_SIGHAND` ([`clone3`]) and `clone(CLONE_VM|CLONE_VFORK)`
//! ([`clone_vfork`]), on what they share: the parent's side of a `CLONE_VM` spawn
//! ([`parent`]) and the child's private stack ([`stack`]). `no_clone.rs` stands in for this
//! folder elsewhere.

mod clone3;
mod clone3_flags;
mod clone_vfork;
mod parent;
mod stack;

pub(crate) use clone3::{clone3, clone3_maybe_supported};
pub(crate) use clone_vfork::clone_vfork;

/// Why neither clone strategy may run in this process at all, if so: glibc's `clone` wrapper
/// before 2.25 makes the child write the parent thread's PID/TID cache (clone3 never calls
/// it, so only `clone_vfork` is affected); and where this crate does not declare the kernel's
/// `struct sigaction` the child could only reach libc `sigaction`, which must not run in a
/// `CLONE_VM` child (musl's takes a lock).
pub(crate) fn clone_vfork_forbidden() -> Option<&'static str> {
    if crate::platform::glibc_version::older_than(2, 25) {
        return Some("run: glibc's clone before 2.25 overwrites the parent's PID/TID cache");
    }
    clone_vm_forbidden()
}

/// As [`clone_vfork_forbidden`], for clone3; also where this crate has no trampoline for the
/// architecture (the kernel may well have clone3: `caps` reports the two apart).
pub(crate) fn clone3_forbidden() -> Option<&'static str> {
    if !crate::platform::clone3::HAS_TRAMPOLINE {
        return Some(NO_TRAMPOLINE);
    }
    clone_vm_forbidden()
}

/// Why a forced `Clone3` fails on an architecture this crate has no trampoline for.
pub(crate) const NO_TRAMPOLINE: &str =
    "run: this crate has no clone3 support on this architecture (no trampoline)";

fn clone_vm_forbidden() -> Option<&'static str> {
    (!crate::platform::RAW_SIGACTION)
        .then_some("run: the kernel's struct sigaction is not declared for this architecture")
}

/// Whether `clone(CLONE_VM|CLONE_VFORK)` may run and works here (probed once).
pub(crate) fn clone_vfork_supported() -> bool {
    clone_vfork_forbidden().is_none() && clone_vfork::works()
}

/// Whether clone3 may run and works here (probed once).
pub(crate) fn clone3_supported() -> bool {
    clone3_forbidden().is_none() && clone3::clone3_supported()
}
