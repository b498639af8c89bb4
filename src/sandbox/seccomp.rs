//! A classic-BPF seccomp filter from a short list of rules: "this system call (optionally only
//! when a flag bit is set in its first argument) answers this errno"; everything else runs.

use std::io;

/// One rule of a filter.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rule {
    nr: libc::c_long,
    /// Only when `args[0] & flag != 0` (0: always).
    flag: u32,
    errno: libc::c_int,
}

impl Rule {
    /// System call `nr` answers `errno`.
    pub(super) const fn refuse(nr: libc::c_long, errno: libc::c_int) -> Rule {
        Rule { nr, flag: 0, errno }
    }

    /// System call `nr` answers `errno` when its first argument has `flag` set.
    pub(super) const fn refuse_with_flag(nr: libc::c_long, flag: u32, errno: libc::c_int) -> Rule {
        Rule { nr, flag, errno }
    }
}

/// `struct seccomp_data`: `nr` at 0, `args[0]` at 16 (its low 32 bits first on little-endian
/// machines, at 20 on big-endian ones).
const NR_OFFSET: u32 = 0;
#[cfg(target_endian = "little")]
const ARG0_LOW_OFFSET: u32 = 16;
#[cfg(target_endian = "big")]
const ARG0_LOW_OFFSET: u32 = 20;

fn stmt(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    }
}

/// The BPF program for `rules`: per rule, load `nr`, compare, (load `args[0]`, test the flag),
/// return the errno; after all rules, allow.
fn program(rules: &[Rule]) -> io::Result<Vec<libc::sock_filter>> {
    let mut prog = Vec::new();
    for r in rules {
        let nr = u32::try_from(r.nr).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        let errno =
            u32::try_from(r.errno).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        let ret = libc::SECCOMP_RET_ERRNO | (errno & libc::SECCOMP_RET_DATA);
        prog.push(stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, NR_OFFSET));
        if r.flag == 0 {
            // Equal: fall into the return; else skip it.
            prog.push(jump(libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K, nr, 0, 1));
        } else {
            // Not equal: skip the load, the test and the return.
            prog.push(jump(libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K, nr, 0, 3));
            prog.push(stmt(
                libc::BPF_LD | libc::BPF_W | libc::BPF_ABS,
                ARG0_LOW_OFFSET,
            ));
            prog.push(jump(
                libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K,
                r.flag,
                0,
                1,
            ));
        }
        prog.push(stmt(libc::BPF_RET | libc::BPF_K, ret));
    }
    prog.push(stmt(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ALLOW));
    Ok(prog)
}

/// Sets `no_new_privs` and installs the filter on every thread of the process.
pub(super) fn install(rules: &[Rule]) -> io::Result<()> {
    let prog = program(rules)?;
    let fprog = libc::sock_fprog {
        len: u16::try_from(prog.len()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?,
        filter: prog.as_ptr().cast_mut(),
    };
    // SAFETY: plain prctl; the filter program outlives the seccomp call, which copies it.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        let rc = libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            libc::SECCOMP_FILTER_FLAG_TSYNC,
            &fprog as *const libc::sock_fprog,
        );
        match rc {
            0 => Ok(()),
            // TSYNC: another thread could not be synchronised (its id is returned).
            rc if rc > 0 => Err(io::Error::other(format!(
                "seccomp: thread {rc} could not take the filter"
            ))),
            _ => Err(io::Error::last_os_error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_rule_skips_to_the_next_rule_when_the_call_differs() {
        let p = program(&[Rule::refuse_with_flag(56, 0x100, 1), Rule::refuse(435, 38)]).unwrap();
        // ld nr; jeq 56 ? 0 : 3; ld arg0; jset 0x100 ? 0 : 1; ret errno; ld nr; jeq 435; ret; allow
        assert_eq!(p.len(), 9);
        assert_eq!((p[1].k, p[1].jt, p[1].jf), (56, 0, 3));
        assert_eq!(p[4].k, libc::SECCOMP_RET_ERRNO | 1);
        assert_eq!((p[6].k, p[6].jt, p[6].jf), (435, 0, 1));
        assert_eq!(p[8].k, libc::SECCOMP_RET_ALLOW);
    }
}
