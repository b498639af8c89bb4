//! The clone3 trampolines, one file per architecture: `clone3` has no libc wrapper, and a
//! child on a new stack must not return into Rust frames, so a few instructions make the call
//! and, in the child, jump straight to its entry. The `clone3` strategy
//! (`strategies/clone_vm/clone3.rs`) and `caps` (whether this build has one) use them.

use std::ffi::c_void;

#[cfg(target_arch = "x86_64")]
mod x86_64;
#[cfg(target_arch = "x86_64")]
use x86_64 as arch;

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "aarch64")]
use aarch64 as arch;

#[cfg(target_arch = "s390x")]
mod s390x;
#[cfg(target_arch = "s390x")]
use s390x as arch;

#[cfg(target_arch = "riscv64")]
mod riscv64;
#[cfg(target_arch = "riscv64")]
use riscv64 as arch;

// Little-endian powerpc64 with a compiler whose PowerPC inline assembly is stable (set by
// build/clone3.rs).
#[cfg(spawnmatrix_clone3_powerpc64le)]
mod powerpc64le;
#[cfg(spawnmatrix_clone3_powerpc64le)]
use powerpc64le as arch;

#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "s390x",
    target_arch = "riscv64",
    spawnmatrix_clone3_powerpc64le
)))]
mod other_arch;
#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "s390x",
    target_arch = "riscv64",
    spawnmatrix_clone3_powerpc64le
)))]
use other_arch as arch;

pub(crate) use arch::raw_clone3;

/// Whether this crate has a clone3 trampoline for the target architecture. Without one the
/// strategy is unavailable whatever the kernel says (a forced `Clone3` is `Unsupported`,
/// naming the crate, not the kernel).
pub(crate) const HAS_TRAMPOLINE: bool = arch::HAS_TRAMPOLINE;

/// The child's entry as the trampolines call it.
pub(crate) type Entry = unsafe extern "C" fn(*mut c_void) -> !;
