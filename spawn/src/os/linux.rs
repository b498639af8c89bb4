//! Linux (glibc and musl).

/// Signals are 1..=64.
pub(crate) const NSIG: libc::c_int = 65;

/// glibc and musl run the file actions in the child and then `execve`, so a relative path is
/// looked up in the new directory (glibc `spawni.c`, musl `posix_spawn.c`; tested here).
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = true;
