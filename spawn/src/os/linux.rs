//! Linux (glibc and musl).

/// One above the highest signal number, from the kernel's `_NSIG` for the architecture (128
/// signals on MIPS, 64 elsewhere).
#[cfg(spawnmatrix_raw_sigaction)]
pub(crate) use crate::sys::kernel_sigaction::NSIG;
/// An architecture whose kernel structs this crate does not declare: 64 signals, as on every
/// Linux architecture but MIPS (which it declares).
#[cfg(not(spawnmatrix_raw_sigaction))]
pub(crate) const NSIG: libc::c_int = 65;

/// glibc and musl run the file actions in the child and then `execve`, so a relative path is
/// looked up in the new directory (glibc `spawni.c`, musl `posix_spawn.c`; tested here).
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = true;

/// The search path when the child's environment has no `PATH`: what `execvp` (and so
/// `posix_spawnp` and `std::process::Command`, which leave the search to them) uses on this
/// libc. glibc: `CS_PATH` (`posix/execvpe.c`), "/bin:/usr/bin".
#[cfg(not(target_env = "musl"))]
pub(crate) const DEFAULT_PATH: &[u8] = b"/bin:/usr/bin";
/// musl's `__execvpe` (`src/process/execvp.c`) uses "/usr/local/bin:/bin:/usr/bin", unlike its
/// own `confstr(_CS_PATH)` ("/bin:/usr/bin").
#[cfg(target_env = "musl")]
pub(crate) const DEFAULT_PATH: &[u8] = b"/usr/local/bin:/bin:/usr/bin";

/// Whether this process has one thread only (`Threads:` in `/proc/self/status`); false when
/// that cannot be read (no `/proc`).
pub(crate) fn single_threaded() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Threads:"))
            .is_some_and(|n| n.trim() == "1")
    })
}
