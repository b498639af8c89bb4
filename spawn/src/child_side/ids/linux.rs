//! The id system calls themselves, for a forked child (no libc wrapper: glibc's and musl's
//! signal every thread of the process and wait for them, which a child need not do).
//!
//! Which numbers take full 32-bit ids, from the kernel's syscall tables: 32-bit x86, ARM and
//! SPARC keep the 16-bit calls under the old names (`sys_setuid16`: `.uid(70000)` would set
//! uid 4464) and add `setuid32`/`setgid32`/`setgroups32`; m68k has the same split, and the
//! `libc` crate already names its 32-bit calls `SYS_setuid`/`SYS_setgid`/`SYS_setgroups`
//! (213, 214, 206); every other Linux architecture (MIPS, PowerPC, RISC-V, s390x, LoongArch,
//! CSKY, Hexagon, the 64-bit ones) has only the 32-bit calls.

use crate::platform::errno::errno;

#[cfg(not(any(target_arch = "x86", target_arch = "arm", target_arch = "sparc")))]
use libc::{SYS_setgid as SETGID, SYS_setgroups as SETGROUPS, SYS_setuid as SETUID};
#[cfg(any(target_arch = "x86", target_arch = "arm", target_arch = "sparc"))]
use libc::{SYS_setgid32 as SETGID, SYS_setgroups32 as SETGROUPS, SYS_setuid32 as SETUID};

/// 0 for a call that returned 0, else the errno.
unsafe fn rc(r: libc::c_long) -> libc::c_int {
    if r == 0 {
        0
    } else {
        errno()
    }
}

pub(super) unsafe fn set_groups(groups: &[libc::gid_t]) -> libc::c_int {
    rc(libc::syscall(SETGROUPS, groups.len(), groups.as_ptr()))
}

pub(super) unsafe fn set_gid(gid: libc::gid_t) -> libc::c_int {
    rc(libc::syscall(SETGID, gid))
}

pub(super) unsafe fn set_uid(uid: libc::uid_t) -> libc::c_int {
    rc(libc::syscall(SETUID, uid))
}

/// `prctl(PR_SET_DUMPABLE, 0)` on the child's own mm (it is a fork): `commit_creds` has just
/// set it to `fs.suid_dumpable`, and at 1 the target user could attach until `execve`
/// (which sets it again for the new program).
pub(super) unsafe fn make_undumpable() -> libc::c_int {
    let zero: libc::c_ulong = 0;
    rc(libc::syscall(
        libc::SYS_prctl,
        libc::PR_SET_DUMPABLE as libc::c_ulong,
        zero,
        zero,
        zero,
        zero,
    ))
}

/// `(setuid, setgid, setgroups)` as the kernel's tables number the 32-bit calls
/// (`arch/x86/entry/syscalls/syscall_{32,64}.tbl`, `arch/arm/tools/syscall.tbl`,
/// `arch/{m68k,sparc}/kernel/syscalls/syscall.tbl`, `include/uapi/asm-generic/unistd.h`),
/// where an architecture has a 16-bit set beside them or its own numbering; `None`: only
/// 32-bit calls exist (see the module docs).
const PINNED: Option<(libc::c_long, libc::c_long, libc::c_long)> =
    if cfg!(all(target_arch = "x86_64", target_pointer_width = "64")) {
        Some((105, 106, 116))
    } else if cfg!(any(
        target_arch = "x86",
        target_arch = "arm",
        target_arch = "m68k"
    )) {
        Some((213, 214, 206))
    } else if cfg!(target_arch = "sparc") {
        Some((87, 89, 82))
    } else if cfg!(any(target_arch = "aarch64", target_arch = "riscv64")) {
        Some((146, 144, 159))
    } else {
        None
    };

// Checked when the crate compiles, so `cargo check` for a target that cannot run here (SPARC,
// m68k in ci/checks/50-cross-check.sh) verifies its numbers too.
const _: () = if let Some((uid, gid, groups)) = PINNED {
    assert!(SETUID == uid && SETGID == gid && SETGROUPS == groups);
};

#[cfg(test)]
mod tests {
    /// The architectures this suite runs on are pinned (so the check above is not vacuous).
    #[test]
    fn id_calls_are_pinned_here() {
        let x86_64 = cfg!(all(target_arch = "x86_64", target_pointer_width = "64"));
        if x86_64 || cfg!(any(target_arch = "x86", target_arch = "aarch64")) {
            let (uid, gid, groups) = super::PINNED.expect("pinned");
            assert_eq!(
                (super::SETUID, super::SETGID, super::SETGROUPS),
                (uid, gid, groups)
            );
        }
    }
}
