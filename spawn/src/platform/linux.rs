//! Linux (glibc and musl) and Android (bionic), which share the kernel.

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
#[cfg(all(target_os = "linux", not(target_env = "musl")))]
pub(crate) const DEFAULT_PATH: &[u8] = b"/bin:/usr/bin";
/// bionic's `execvp` uses `_PATH_DEFPATH` from its `<paths.h>`, which has changed between
/// releases: this is the list at aosp-mirror/platform_bionic@3822f549 (older trees, such as
/// LineageOS/android_bionic@a4404357, lack `/vendor/xbin`). A child environment without
/// `PATH` is rare on Android; give one to be exact.
#[cfg(target_os = "android")]
pub(crate) const DEFAULT_PATH: &[u8] =
    b"/sbin:/vendor/bin:/system/sbin:/system/bin:/system/xbin:/vendor/xbin";
/// musl's `__execvpe` (`src/process/execvp.c`) uses "/usr/local/bin:/bin:/usr/bin", unlike its
/// own `confstr(_CS_PATH)` ("/bin:/usr/bin").
#[cfg(target_env = "musl")]
pub(crate) const DEFAULT_PATH: &[u8] = b"/usr/local/bin:/bin:/usr/bin";

/// Whether this process has one thread only: `Threads:` in `/proc/self/status`, or without
/// `/proc` the kernel's own check in `unshare(CLONE_THREAD)`, which refuses (`EINVAL`) a
/// process with other threads and is a no-op in one without (kernel/fork.c
/// `check_unshare_flags`: "pretend it works if there is nothing to unshare"). False when
/// neither can say (a seccomp filter refusing `unshare`, a kernel before 4.3 whose check
/// refused every caller). Limit: a seccomp filter whose action for `unshare` is to kill would
/// kill the process here, where it has no `/proc` (Docker's and systemd's namespace
/// restrictions answer `EPERM`).
pub(crate) fn single_threaded() -> bool {
    match std::fs::read_to_string("/proc/self/status") {
        Ok(s) => s
            .lines()
            .find_map(|l| l.strip_prefix("Threads:"))
            .is_some_and(|n| n.trim() == "1"),
        Err(_) => alone_by_unshare(),
    }
}

/// `unshare(CLONE_THREAD)` succeeds only in a process without other threads.
fn alone_by_unshare() -> bool {
    // SAFETY: with CLONE_THREAD alone unshare changes nothing; it only checks.
    unsafe { libc::syscall(libc::SYS_unshare, libc::CLONE_THREAD) == 0 }
}

/// This process's parent-death signal (`PR_GET_PDEATHSIG`), for a failed `exec` to put
/// back; `None` if it cannot be read.
pub(crate) fn parent_death_signal() -> Option<libc::c_int> {
    let mut sig: libc::c_int = 0;
    // SAFETY: PR_GET_PDEATHSIG writes one int.
    let rc = unsafe { libc::prctl(libc::PR_GET_PDEATHSIG, std::ptr::addr_of_mut!(sig)) };
    (rc == 0).then_some(sig)
}

#[cfg(test)]
mod tests {
    /// The test harness runs threads: the kernel's check says so, as `/proc` does.
    #[test]
    fn unshare_sees_the_other_threads() {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let other = std::thread::spawn(move || rx.recv().ok());
        assert!(!super::alone_by_unshare());
        tx.send(()).unwrap();
        other.join().unwrap();
    }
}
