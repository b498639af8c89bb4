//! A seccomp filter under which `pidfd_open` answers `ENOSYS`, as on a kernel before 5.3: the
//! adapters then have no exit notifier here.

/// Installs the filter on every thread of this process (for a re-executed test only: it
/// cannot be removed). `no_new_privs` is set first, as seccomp requires without
/// `CAP_SYS_ADMIN`.
pub fn install() {
    use super::seccomp::{self, insn};
    // Load the call's number (offset 0 of seccomp_data); pidfd_open: ENOSYS; else allow.
    seccomp::install(&[
        insn(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, 0),
        insn(
            libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
            0,
            1,
            libc::SYS_pidfd_open as u32,
        ),
        insn(
            libc::BPF_RET | libc::BPF_K,
            0,
            0,
            libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
        ),
        insn(libc::BPF_RET | libc::BPF_K, 0, 0, libc::SECCOMP_RET_ALLOW),
    ]);
    // The filter works: pidfd_open of this process is refused.
    // SAFETY: a plain syscall on this process's pid.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) };
    assert_eq!(fd, -1);
    assert_eq!(
        std::io::Error::last_os_error().raw_os_error(),
        Some(libc::ENOSYS)
    );
}
