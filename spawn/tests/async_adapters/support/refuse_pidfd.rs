//! A seccomp filter under which `pidfd_open` answers `ENOSYS`, as on a kernel before 5.3: the
//! adapters then have no exit notifier here.

/// Installs the filter on every thread of this process (for a re-executed test only: it
/// cannot be removed). `no_new_privs` is set first, as seccomp requires without
/// `CAP_SYS_ADMIN`.
pub fn install() {
    let insn = |code: u32, jt: u8, jf: u8, k: u32| libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    // Load the call's number (offset 0 of seccomp_data); pidfd_open: ENOSYS; else allow.
    let prog = [
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
    ];
    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_ptr().cast_mut(),
    };
    // SAFETY: plain prctl and seccomp calls; the program outlives the call, which copies it.
    unsafe {
        assert_eq!(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
        let rc = libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            libc::SECCOMP_FILTER_FLAG_TSYNC,
            &fprog as *const libc::sock_fprog,
        );
        assert_eq!(rc, 0, "seccomp: {}", std::io::Error::last_os_error());
        // The filter works: pidfd_open of this process is refused.
        let fd = libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0);
        assert_eq!(fd, -1);
        assert_eq!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::ENOSYS)
        );
    }
}
