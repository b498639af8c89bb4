//! Linux (glibc and musl).

/// One above the highest signal number, from the kernel's `_NSIG` for the architecture (128
/// signals on MIPS, 64 elsewhere).
#[cfg(spawnmatrix_raw_sigaction)]
pub(in crate::spawn) use crate::sys::kernel_sigaction::NSIG;
/// An architecture whose kernel structs this crate does not declare: 64 signals, as on every
/// Linux architecture but MIPS (which it declares).
#[cfg(not(spawnmatrix_raw_sigaction))]
pub(in crate::spawn) const NSIG: libc::c_int = 65;

/// glibc and musl run the file actions in the child and then `execve`, so a relative path is
/// looked up in the new directory (glibc `spawni.c`, musl `posix_spawn.c`; tested here).
pub(in crate::spawn) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = true;
