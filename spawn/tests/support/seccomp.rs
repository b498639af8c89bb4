//! Installing a seccomp filter in a re-executed test process (Linux): the part every
//! filter shares. Each test builds its own program from `insn`.

/// One BPF instruction.
pub fn insn(code: u32, jt: u8, jf: u8, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    }
}

/// Installs `prog` on every thread of this process (it cannot be removed, so only in a
/// re-executed test). Sets `no_new_privs` first, as seccomp requires without
/// `CAP_SYS_ADMIN`. Panics, with the errno, if the kernel refuses the filter.
pub fn install(prog: &[libc::sock_filter]) {
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
    }
}
