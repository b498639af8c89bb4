//! A classic-BPF seccomp filter from a short list of rules: "this system call (optionally only
//! when a flag bit is set in its first argument, and another is not) answers this errno";
//! everything else runs.

use std::io;

/// One rule of a filter.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rule {
    nr: libc::c_long,
    /// Only when `args[0] & flag != 0` (0: always).
    flag: u32,
    /// Never when `args[0] & unless != 0` (0: no exception).
    unless: u32,
    errno: libc::c_int,
}

impl Rule {
    /// System call `nr` answers `errno`.
    pub(super) const fn refuse(nr: libc::c_long, errno: libc::c_int) -> Rule {
        Rule {
            nr,
            flag: 0,
            unless: 0,
            errno,
        }
    }

    /// System call `nr` answers `errno` when its first argument has `flag` set and `unless`
    /// clear.
    pub(super) const fn refuse_with_flag(
        nr: libc::c_long,
        flag: u32,
        unless: u32,
        errno: libc::c_int,
    ) -> Rule {
        Rule {
            nr,
            flag,
            unless,
            errno,
        }
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

/// The BPF program for `rules`: per rule, load `nr` and compare; for a flag rule, load
/// `args[0]`, skip the rule if `unless` is set, skip the return unless `flag` is set; return the
/// errno. After all rules, allow.
fn program(rules: &[Rule]) -> io::Result<Vec<libc::sock_filter>> {
    let invalid = || io::Error::from(io::ErrorKind::InvalidInput);
    let mut prog = Vec::new();
    for r in rules {
        let nr = u32::try_from(r.nr).map_err(|_| invalid())?;
        let errno = u32::try_from(r.errno).map_err(|_| invalid())?;
        // What follows the comparison of `nr`, up to and including the return.
        let mut body = Vec::new();
        if r.flag != 0 {
            body.push(stmt(
                libc::BPF_LD | libc::BPF_W | libc::BPF_ABS,
                ARG0_LOW_OFFSET,
            ));
            if r.unless != 0 {
                // Set: skip the flag test and the return.
                body.push(jump(
                    libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K,
                    r.unless,
                    2,
                    0,
                ));
            }
            body.push(jump(
                libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K,
                r.flag,
                0,
                1,
            ));
        }
        body.push(stmt(
            libc::BPF_RET | libc::BPF_K,
            libc::SECCOMP_RET_ERRNO | (errno & libc::SECCOMP_RET_DATA),
        ));
        let skip = u8::try_from(body.len()).map_err(|_| invalid())?;
        prog.push(stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, NR_OFFSET));
        prog.push(jump(
            libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
            nr,
            0,
            skip,
        ));
        prog.extend(body);
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
        let p = program(&[
            Rule::refuse_with_flag(56, 0x100, 0x10000, 1),
            Rule::refuse(435, 38),
        ])
        .unwrap();
        // ld nr; jeq 56 ? 0 : 4; ld arg0; jset 0x10000 ? 2 : 0; jset 0x100 ? 0 : 1; ret errno;
        // ld nr; jeq 435 ? 0 : 1; ret errno; allow
        assert_eq!(p.len(), 10);
        assert_eq!((p[1].k, p[1].jt, p[1].jf), (56, 0, 4));
        assert_eq!((p[3].k, p[3].jt, p[3].jf), (0x10000, 2, 0));
        assert_eq!((p[4].k, p[4].jt, p[4].jf), (0x100, 0, 1));
        assert_eq!(p[5].k, libc::SECCOMP_RET_ERRNO | 1);
        assert_eq!((p[7].k, p[7].jt, p[7].jf), (435, 0, 1));
        assert_eq!(p[9].k, libc::SECCOMP_RET_ALLOW);
    }
}
