//! Documented claims against facts checked by hand in each libc's own tree (issue 14): every row
//! pins one corrected boundary or citation of `targets/*/platform.yaml`, the way
//! `tests/linkcheck_facts.rs` pins link evidence. `None` means no claim may cover that release
//! (the evidence does not settle it).

use std::path::Path;

use rstest::rstest;
use serde_json::json;
use spawnmatrix::matrix::docs::{Docs, Family};
use spawnmatrix::matrix::version::Release;
use spawnmatrix::matrix::Value;

fn family(name: &str) -> Family {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let docs = Docs::load(&targets).unwrap();
    docs.families
        .into_iter()
        .find(|f| f.spec.family == name)
        .unwrap_or_else(|| panic!("no family {name}"))
}

fn value(v: serde_json::Value) -> Value {
    serde_json::from_value(v).unwrap()
}

#[rstest]
// FreeBSD: absent in 13.0 (gnulib), present in a 13.2-based tree (OPNsense: FBSD_1.7 in
// Symbol.map); 13.1 is not settled, so nothing may claim it (the zig 13.1 "absent" came from a
// shared-object link), and the boundary is the interval 13.1-13.2, not 14.0.
#[case("freebsd", "functions.posix_spawn_file_actions_addchdir_np", "13.0", Some(json!(false)), "GNULIB-NP")]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addchdir_np",
    "13.1",
    None,
    ""
)]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addfchdir_np",
    "13.1",
    None,
    ""
)]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addclosefrom_np",
    "13.1",
    None,
    ""
)]
#[case("freebsd", "functions.posix_spawn_file_actions_addchdir_np", "13.2", Some(json!(true)), "FB-OPNSENSE-13.2")]
#[case("freebsd", "functions.posix_spawn_file_actions_addfchdir_np", "13.2", Some(json!(true)), "FB-OPNSENSE-13.2")]
#[case("freebsd", "functions.posix_spawn_file_actions_addclosefrom_np", "13.2", Some(json!(true)), "FB-OPNSENSE-13.2")]
#[case("freebsd", "functions.posix_spawn_file_actions_addchdir_np", "14.0", Some(json!(true)), "FB-SYMBOLS")]
#[case("freebsd", "cases.chdir-enoent.libc", "13.2", Some(json!("returned:ENOENT")), "FB-OPNSENSE-13.2")]
// FreeBSD citations: the close rule and the negative-fd check are in posix_spawn.c; the error
// rows hold in the 8.3 release tree already (posix_spawn itself is 8.0, posix_spawn.3).
#[case("freebsd", "functions.posix_spawn", "8.0", Some(json!(true)), "FB-MAN-POSIX_SPAWN")]
#[case("freebsd", "functions.posix_spawn", "7.4", Some(json!(false)), "FB-MAN-POSIX_SPAWN")]
#[case("freebsd", "cases.fa-close-not-open.libc", "8.3", Some(json!("ok")), "FB-8.3-SRC")]
#[case("freebsd", "cases.fa-close-not-open.libc", "14.0", Some(json!("ok")), "FB-8.3-SRC")]
#[case("freebsd", "cases.exec-enoent.libc", "8.3", Some(json!("returned:ENOENT")), "FB-8.3-SRC")]
#[case("freebsd", "cases.exec-enoent.libc", "8.2", None, "")]
#[case("freebsd", "flags.POSIX_SPAWN_RESETIDS", "8.0", Some(json!(true)), "FB-8.3-ATTR")]
#[case("freebsd", "functions.posix_spawnattr_setschedparam", "8.0", Some(json!(true)), "FB-8.3-ATTR")]
// FreeBSD setflags: any bits stored from 8.x through the 13.2-based tree; EINVAL only with
// DISABLE_ASLR_NP (main), so 14.0 is not claimed either way.
#[case("freebsd", "cases.attr-setflags-undefined-bit.libc", "13.2", Some(json!("ok")), "FB-8.3-SRC")]
#[case("freebsd", "cases.attr-setflags-undefined-bit.libc", "14.0", None, "")]
#[case("freebsd", "cases.attr-setflags-undefined-bit.libc", "15.1", Some(json!("add:EINVAL")), "FB-ASLR-EINVAL")]
#[case("freebsd", "cases.fchdir-add-negative-fd.libc", "14.0", Some(json!("add:EBADF")), "FB-SRC")]
// macOS: the kernel's close fails the spawn (kern_exec.c); the four functions are absent in 14
// by gnulib and in 15 by xnu-11417's own <spawn.h>.
#[case("macos", "cases.fa-close-not-open.libc", "10.5", Some(json!("returned:EBADF")), "XNU-1228-KEXEC")]
#[case("macos", "cases.fa-close-not-open.libc", "15", Some(json!("returned:EBADF")), "XNU-1228-KEXEC")]
#[case("macos", "cases.exec-enoent.libc", "10.5", Some(json!("returned:ENOENT")), "XNU-1228-KEXEC")]
#[case("macos", "cases.chdir-enoent.libc", "10.15", Some(json!("returned:ENOENT")), "XNU-6153-CHDIR")]
#[case("macos", "flags.POSIX_SPAWN_SETEXEC", "10.5", Some(json!(true)), "XNU-1228-H")]
#[case("macos", "flags.POSIX_SPAWN_SETEXEC", "10.4", Some(json!(false)), "XNU-1228-H")]
// macOS 26 is spelt 26.0, like its link column; addfchdir is absent in 15 (xnu-11417).
#[case("macos", "functions.posix_spawn_file_actions_addfchdir", "15", Some(json!(false)), "XNU-H-ALL")]
#[case("macos", "functions.posix_spawn_file_actions_addchdir", "26.0", Some(json!(true)), "SDK26-H")]
#[case("macos", "functions.posix_spawn_file_actions_addfchdir", "26.0", Some(json!(true)), "SDK26-H")]
#[case("macos", "functions.posix_spawn_file_actions_addclosefrom_np", "14", Some(json!(false)), "GNULIB-MAC14")]
#[case("macos", "functions.posix_spawn_file_actions_addclosefrom_np", "15", Some(json!(false)), "XNU-H-ALL")]
#[case("macos", "functions.pidfd_spawn", "15", Some(json!(false)), "XNU-H-ALL")]
#[case(
    "macos",
    "functions.posix_spawn_file_actions_addtcsetpgrp_np",
    "26",
    None,
    ""
)]
#[case("macos", "cases.spawnp-script-no-shebang.libc", "15", Some(json!("ok")), "LIBC-498")]
#[case("macos", "cases.spawnp-script-no-shebang.libc", "10.5", Some(json!("ok")), "LIBC-498")]
// Cygwin: addtcsetpgrp_np's absence is read from newlib's <spawn.h>, not from gnulib.
#[case("cygwin", "functions.posix_spawn_file_actions_addtcsetpgrp_np", "3.6.10", Some(json!(false)), "CYG-H")]
#[case("cygwin", "cases.spawnp-script-no-shebang.libc", "3.4.10", Some(json!("ok")), "GNULIB-SPAWNP")]
#[case("cygwin", "cases.spawnp-script-no-shebang.libc", "3.5.0", Some(json!("returned:ENOEXEC")), "CYG-REL-3.5.0")]
#[case("cygwin", "cases.exec-enotdir.libc", "3.6.10", Some(json!("returned:ENOENT")), "CYG-TEST")]
// Cygwin: the close, setflags and dup2(fd, fd) behaviour is the 1.7.26 code; errors were not
// returned before 3.1.7 (Cygwin's vfork is a fork); cygwin.din and <spawn.h> answer the flags.
#[case("cygwin", "cases.fa-close-not-open.libc", "1.7.26", Some(json!("ok")), "CYG-1.7.26-SRC")]
#[case("cygwin", "cases.attr-setflags-undefined-bit.libc", "1.7.26", Some(json!("ok")), "CYG-1.7.26-SRC")]
#[case("cygwin", "cases.fa-dup2-self-cloexec-visible.libc", "3.1.6", Some(json!("ok")), "CYG-1.7.26-SRC")]
#[case("cygwin", "cases.exec-enoent.libc", "3.1.6", Some(json!("child-exit:127")), "CYG-VFORK-1.7.26")]
#[case("cygwin", "cases.exec-enoent.libc", "3.1.7", Some(json!("returned:ENOENT")), "CYG-3FBF")]
#[case("cygwin", "cases.dup2-add-fd-beyond-open-max.libc", "3.1.6", Some(json!("child-exit:127")), "CYG-VFORK-1.7.26")]
#[case("cygwin", "flags.POSIX_SPAWN_SETSIGMASK", "1.7.26", Some(json!(true)), "CYG-1.7.26-H")]
#[case("cygwin", "flags.POSIX_SPAWN_SETSIGMASK", "1.7.25", Some(json!(false)), "CYG-1.7.26-H")]
#[case("cygwin", "flags.POSIX_SPAWN_USEVFORK", "3.6.10", Some(json!(false)), "CYG-H-FLAGS")]
#[case("cygwin", "functions.posix_spawnattr_setschedpolicy", "1.7.26", Some(json!(true)), "CYG-1.7.26-DIN")]
#[case("cygwin", "functions.pidfd_spawn", "3.6.10", Some(json!(false)), "CYG-H-FLAGS")]
// OpenBSD: the scheduling flags are defined and accepted but '#if 0 /* NOT IMPLEMENTED */'.
#[case("openbsd", "flags.POSIX_SPAWN_SETSCHEDULER", "7.8", Some(json!("ignored")), "OB-SRC")]
#[case("openbsd", "flags.POSIX_SPAWN_SETSCHEDPARAM", "7.8", Some(json!("ignored")), "OB-SRC")]
#[case("openbsd", "cases.exec-enoent.libc", "7.8", Some(json!("child-exit:127")), "OB-SRC")]
// OpenBSD: posix_spawn is 5.2 by its own man page, not the 7.8 link column.
#[case("openbsd", "functions.posix_spawn", "5.2", Some(json!(true)), "OB-MAN-5.2")]
#[case("openbsd", "functions.posix_spawn", "5.1", Some(json!(false)), "OB-MAN-5.2")]
#[case("openbsd", "flags.POSIX_SPAWN_RESETIDS", "5.7", Some(json!(true)), "OB-SRC-ATTR")]
#[case("openbsd", "flags.POSIX_SPAWN_RESETIDS", "5.6", None, "")]
// Solaris 11.4: Oracle's 11.4 page documents the POSIX names, gnulib's 11.4 lacks them, so
// they are claimed from 11.4 with a needs-an-SRU state; 11.0 stays unclaimed.
#[case("solaris", "functions.posix_spawn_file_actions_addchdir", "11.4", Some(json!(true)), "ORA-MAN")]
#[case(
    "solaris",
    "functions.posix_spawn_file_actions_addchdir",
    "11.0",
    None,
    ""
)]
// glibc: the /bin/sh retry came back by mistake in 2.24-2.27 (BZ 23264).
#[case("linux-glibc", "cases.spawnp-script-no-shebang.libc", "2.23", Some(json!("child-exit:127")), "GL-POSIXSPAWNI-2.23")]
#[case("linux-glibc", "cases.spawnp-script-no-shebang.libc", "2.24", Some(json!("ok")), "GL-SPAWNI-2.27")]
#[case("linux-glibc", "cases.spawnp-script-no-shebang.libc", "2.27", Some(json!("ok")), "GL-SPAWNI-2.27")]
#[case("linux-glibc", "cases.spawnp-script-no-shebang.libc", "2.28", Some(json!("returned:ENOEXEC")), "GL-SPAWNI-2.28")]
#[case("linux-glibc", "cases.exec-enoent.libc", "2.23", Some(json!("child-exit:127")), "GL-POSIXSPAWNI-2.23")]
#[case("linux-glibc", "cases.exec-enoent.libc", "2.24", Some(json!("returned:ENOENT")), "GL-SPAWNI-2.24")]
// glibc flags from the 2.2 header; POSIX_SPAWN_USEVFORK new in 2.3.4, ignored since 2.24.
#[case("linux-glibc", "flags.POSIX_SPAWN_SETSIGMASK", "2.2", Some(json!(true)), "GL-H-2.2")]
#[case("linux-glibc", "flags.POSIX_SPAWN_USEVFORK", "2.3.3", Some(json!(false)), "GL-USEVFORK")]
#[case("linux-glibc", "flags.POSIX_SPAWN_USEVFORK", "2.3.4", Some(json!(true)), "GL-USEVFORK")]
#[case("linux-glibc", "flags.POSIX_SPAWN_USEVFORK", "2.23", Some(json!(true)), "GL-USEVFORK")]
#[case("linux-glibc", "flags.POSIX_SPAWN_USEVFORK", "2.24", Some(json!("ignored")), "GL-USEVFORK-2.24")]
#[case("linux-glibc", "functions.posix_spawnattr_setschedparam", "2.2", Some(json!(true)), "GL-H-2.2")]
// adddup2(fd, fd) clearing FD_CLOEXEC: glibc from 2.29 (BZ 23640), musl from 1.1.19; macOS
// never (the kernel's dup2 returns early).
#[case("linux-glibc", "cases.fa-dup2-self-cloexec-visible.libc", "2.28", Some(json!("child-exit:7")), "GL-DUP2-OLD")]
#[case("linux-glibc", "cases.fa-dup2-self-cloexec-visible.libc", "2.29", Some(json!("ok")), "GL-SPAWNI-2.29")]
#[case("linux-musl", "cases.fa-dup2-self-cloexec-visible.libc", "1.1.17", Some(json!("child-exit:7")), "MUSL-1.1.17-DUP2")]
#[case("linux-musl", "cases.fa-dup2-self-cloexec-visible.libc", "1.1.19", Some(json!("ok")), "MUSL-1.1.19")]
#[case("macos", "cases.fa-dup2-self-cloexec-visible.libc", "15", Some(json!("child-exit:7")), "XNU-1228-DUP2")]
// musl: scheduling flags accepted but ignored; addclose of a closed fd ignored from 1.1.6.
#[case("linux-musl", "flags.POSIX_SPAWN_SETSCHEDULER", "1.2.5", Some(json!("ignored")), "MUSL-H-0.7.11")]
#[case("linux-musl", "flags.POSIX_SPAWN_SETSCHEDULER", "0.7.11", Some(json!("ignored")), "MUSL-H-0.7.11")]
#[case("linux-musl", "flags.POSIX_SPAWN_RESETIDS", "0.7.11", Some(json!(true)), "MUSL-H-0.7.11")]
#[case("linux-musl", "flags.POSIX_SPAWN_USEVFORK", "1.1.16", Some(json!(false)), "MUSL-USEVFORK")]
#[case("linux-musl", "flags.POSIX_SPAWN_USEVFORK", "1.1.17", Some(json!("ignored")), "MUSL-USEVFORK")]
#[case("linux-musl", "functions.posix_spawnattr_setschedparam", "0.9.7", Some(json!(false)), "MUSL-SCHED-0.9.8")]
#[case("linux-musl", "functions.posix_spawnattr_setschedparam", "0.9.8", Some(json!(true)), "MUSL-SCHED-0.9.8")]
#[case("linux-musl", "cases.fa-close-not-open.libc", "1.1.6", Some(json!("ok")), "MUSL-1.1.6")]
// bionic and NetBSD error styles.
#[case("android", "cases.exec-enoent.libc", "14", Some(json!("child-exit:127")), "BIO-2017")]
#[case("netbsd", "cases.exec-enoent.libc", "10.0", Some(json!("returned:ENOENT")), "NB-KERN")]
// Error semantics off Linux (issue 14, part 3): one row per filled cell of the summary's
// error section, read from each libc's own tree.
#[case("linux-glibc", "cases.fchdir-add-negative-fd.libc", "2.29", Some(json!("returned:EBADF")), "GL-CHDIR-2.29")]
#[case("linux-glibc", "cases.chdir-enoent.libc", "2.29", Some(json!("returned:ENOENT")), "GL-CHDIR-2.29")]
#[case("linux-glibc", "cases.fchdir-add-negative-fd.libc", "2.28", None, "")]
#[case("linux-glibc", "cases.fchdir-add-negative-fd-posix.libc", "2.43", Some(json!("unsupported")), "GNULIB-POSIXNAMES")]
#[case(
    "linux-glibc",
    "cases.fchdir-add-negative-fd-posix.libc",
    "2.44",
    None,
    ""
)]
#[case("linux-glibc", "cases.attr-setflags-undefined-bit.libc", "2.3.3", Some(json!("ok")), "GL-SETFLAGS-2.2")]
#[case("linux-glibc", "cases.attr-setflags-undefined-bit.libc", "2.3.4", Some(json!("add:EINVAL")), "GL-SETFLAGS-2.3.4")]
#[case("linux-musl", "cases.attr-setflags-undefined-bit.libc", "1.1.16", Some(json!("ok")), "MUSL-SETFLAGS-OLD")]
#[case("linux-musl", "cases.attr-setflags-undefined-bit.libc", "1.1.17", Some(json!("add:EINVAL")), "MUSL-SCHED")]
#[case("linux-musl", "cases.dup2-add-fd-beyond-open-max.libc", "1.2.3", Some(json!("returned:EBADF")), "MUSL-DUP2-1.2.3")]
#[case("linux-musl", "cases.fchdir-add-negative-fd-posix.libc", "1.2.5", Some(json!("unsupported")), "MUSL-SRC")]
#[case("cygwin", "cases.dup2-add-fd-beyond-open-max.libc", "3.1.7", Some(json!("returned:EBADF")), "CYG-DUP2")]
#[case("cygwin", "cases.fchdir-add-negative-fd-posix.libc", "3.5.0", Some(json!("unsupported")), "CYG-REL-3.6.0")]
#[case("cygwin", "cases.fchdir-add-negative-fd-posix.libc", "3.6.0", Some(json!("add:EBADF")), "CYG-FCHDIR-POSIX")]
#[case("macos", "cases.attr-setflags-undefined-bit.libc", "15", Some(json!("ok")), "LIBC-498")]
#[case("macos", "cases.fchdir-add-negative-fd-posix.libc", "14", Some(json!("unsupported")), "GNULIB-POSIXNAMES")]
#[case("macos", "cases.fchdir-add-negative-fd-posix.libc", "15", Some(json!("unsupported")), "XNU-H-ALL")]
#[case("macos", "cases.fchdir-add-negative-fd-posix.libc", "26", None, "")]
#[case("freebsd", "cases.fchdir-add-negative-fd-posix.libc", "14.0", Some(json!("unsupported")), "GNULIB-POSIXNAMES")]
#[case("freebsd", "cases.fchdir-add-negative-fd-posix.libc", "15.0", None, "")]
#[case("netbsd", "cases.fa-dup2-self-cloexec-visible.libc", "10.0", Some(json!("child-exit:7")), "NB-DUP")]
#[case("netbsd", "cases.attr-setflags-undefined-bit.libc", "10.0", Some(json!("ok")), "NB-ATTR")]
#[case("openbsd", "cases.fchdir-add-negative-fd-posix.libc", "7.8", Some(json!("unsupported")), "GNULIB-POSIXNAMES")]
#[case("android", "cases.chdir-enoent.libc", "13", Some(json!("unsupported")), "BIO-H-34")]
#[case("android", "cases.chdir-enoent.libc", "14", Some(json!("child-exit:127")), "BIO-SRC")]
#[case("android", "cases.fchdir-add-negative-fd.libc", "13", Some(json!("unsupported")), "BIO-H-34")]
#[case("android", "cases.fa-dup2-self-cloexec-visible.libc", "12", Some(json!("child-exit:7")), "BIO-DUP2-13")]
#[case("android", "cases.fa-dup2-self-cloexec-visible.libc", "13", Some(json!("ok")), "BIO-DUP2-13")]
// bionic's own headers answer the flags: the POSIX ones from API 28, CLOEXEC_DEFAULT from 13.
#[case("android", "flags.POSIX_SPAWN_CLOEXEC_DEFAULT", "12", Some(json!(false)), "BIO-CLOEXEC-13")]
#[case("android", "flags.POSIX_SPAWN_CLOEXEC_DEFAULT", "13", Some(json!(true)), "BIO-CLOEXEC-13")]
#[case("android", "flags.POSIX_SPAWN_USEVFORK", "9", Some(json!(true)), "BIO-9-SRC")]
#[case("android", "flags.POSIX_SPAWN_RESETIDS", "9", Some(json!(true)), "BIO-9-H")]
#[case("android", "functions.posix_spawnattr_setschedparam", "9", Some(json!(true)), "BIO-H-28")]
#[case("android", "functions.pidfd_spawn", "15", Some(json!(false)), "BIO-H-ALL")]
#[case("android", "cases.fchdir-add-negative-fd-posix.libc", "14", Some(json!("unsupported")), "BIO-H-ALL")]
#[case("illumos-gate", "cases.dup2-add-fd-beyond-open-max.libc", "2008", Some(json!("returned:EBADF")), "IL-FCNTL")]
#[case("illumos-gate", "cases.fchdir-add-negative-fd-posix.libc", "2008", Some(json!("unsupported")), "IL-MAN-2025")]
// illumos history: exit 127 in 2005, errors returned from 2008, close's EBADF ignored by
// 2011, addchdir/addfchdir in 2025, spawn(2) in the kernel in 2026.
#[case("illumos-gate", "functions.posix_spawn", "2005", Some(json!(true)), "IL-SRC-2005")]
#[case("illumos-gate", "cases.exec-enoent.libc", "2005", Some(json!("child-exit:127")), "IL-SRC-2005")]
#[case("illumos-gate", "cases.exec-enoent.libc", "2007", None, "")]
#[case("illumos-gate", "cases.exec-enoent.libc", "2008", Some(json!("returned:ENOENT")), "IL-SRC-2008")]
#[case("illumos-gate", "cases.fa-close-not-open.libc", "2008", Some(json!("returned:EBADF")), "IL-SRC-2008")]
#[case("illumos-gate", "cases.fa-close-not-open.libc", "2010", None, "")]
#[case("illumos-gate", "cases.fa-close-not-open.libc", "2011", Some(json!("ok")), "IL-SRC-2011")]
#[case("illumos-gate", "cases.fa-close-not-open.libc", "2026", Some(json!("ok")), "IL-SRC-2011")]
#[case("illumos-gate", "functions.posix_spawn_file_actions_addchdir", "2024", Some(json!(false)), "IL-MAN-2025")]
#[case("illumos-gate", "functions.posix_spawn_file_actions_addchdir", "2025", Some(json!(true)), "IL-MAN-2025")]
#[case(
    "illumos-gate",
    "functions.posix_spawn_file_actions_addchdir_np",
    "2020",
    None,
    ""
)]
#[case("illumos-gate", "flags.POSIX_SPAWN_SETSID", "2014", Some(json!(false)), "IL-H-2014")]
#[case("illumos-gate", "flags.POSIX_SPAWN_SETSID", "2025", Some(json!(true)), "IL-H-2025")]
#[case("illumos-gate", "cases.chdir-enoent.libc", "2025", None, "")]
#[case("illumos-gate", "cases.chdir-enoent.libc", "2026", Some(json!("returned:ENOENT")), "IL-KSPAWN-2026")]
#[case("illumos-gate", "cases.fchdir-add-negative-fd-posix.libc", "2025", Some(json!("add:EBADF")), "IL-MAN-2025")]
#[case(
    "illumos-gate",
    "cases.fa-dup2-self-cloexec-visible.libc",
    "2026",
    None,
    ""
)]
// Solaris 11.4: closed source, and the Oracle pages read give no error semantics.
#[case("solaris", "cases.fchdir-add-negative-fd.libc", "11.4", Some(json!("unsupported")), "GNULIB-NP")]
#[case("solaris", "cases.exec-enoent.libc", "11.4", None, "")]
#[case("solaris", "functions.posix_spawn_file_actions_addclosefrom_np", "10", Some(json!(false)), "GNULIB-CF")]
#[case("solaris", "functions.posix_spawn_file_actions_addclosefrom_np", "11.0", Some(json!(true)), "ORA-CLOSEFROM")]
#[case("solaris", "functions.pidfd_spawn", "11.4", Some(json!(false)), "GNULIB-NONGLIBC")]
// Sun's SunOS 5.10 pages list the six POSIX flags; Oracle's 11.4 setflags(3C) adds SETSID and
// lists no other platform's flag (issue 29: no Solaris `?` a Sun or Oracle page answers).
#[case("solaris", "flags.POSIX_SPAWN_SETSID", "10", Some(json!(false)), "SOL-10-MAN")]
#[case("solaris", "flags.POSIX_SPAWN_SETSID", "11.0", None, "")]
#[case("solaris", "flags.POSIX_SPAWN_SETSID", "11.4", Some(json!(true)), "ORA-SETFLAGS")]
#[case("solaris", "flags.POSIX_SPAWN_RESETIDS", "10", Some(json!(true)), "SOL-10-MAN")]
#[case("solaris", "flags.POSIX_SPAWN_SETSCHEDULER", "11.4", Some(json!(true)), "SOL-10-MAN")]
#[case("solaris", "flags.POSIX_SPAWN_USEVFORK", "11.4", Some(json!(false)), "ORA-SETFLAGS")]
#[case("solaris", "functions.posix_spawnp", "10", Some(json!(true)), "SOL-10-MAN")]
#[case("solaris", "functions.posix_spawn_file_actions_addchdir_np", "11.0", Some(json!(false)), "GNULIB-NP")]
#[case("solaris", "functions.posix_spawn_file_actions_addfchdir", "11.4", Some(json!(true)), "ORA-MAN")]
#[case(
    "solaris",
    "functions.posix_spawn_file_actions_addinherit_np",
    "11.4",
    None,
    ""
)]
// musl's own history (issue 29, item 5): 65d7aa4d (first tag v0.9.13) made the exec errno
// reach the caller, dd5b6384 (v1.2.3) checks negative fds at add time.
#[case("linux-musl", "cases.exec-enoent.libc", "0.9.12", None, "")]
#[case("linux-musl", "cases.exec-enoent.libc", "0.9.13", Some(json!("returned:ENOENT")), "MUSL-0.9.13")]
#[case("linux-musl", "cases.spawnp-script-no-shebang.libc", "0.9.13", Some(json!("returned:ENOEXEC")), "MUSL-EXECVP")]
#[case("linux-musl", "cases.fchdir-add-negative-fd.libc", "1.2.2", Some(json!("returned:EBADF")), "MUSL-1.1.24-FCHDIR")]
#[case("linux-musl", "cases.fchdir-add-negative-fd.libc", "1.2.3", Some(json!("add:EBADF")), "MUSL-1.2.3")]
#[case("linux-musl", "functions.pidfd_spawnp", "1.2.4", Some(json!(false)), "MUSL-SRC")]
// glibc: the #ifdef __USE_GNU flag block and the _np block that sat under __USE_GNU until 2.37.
#[case("linux-glibc", "flags.POSIX_SPAWN_SETSID", "2.26", Some(json!(true)), "GL-NEWS-2.26")]
// Android: every API level from 9 to 15 is a doc column read at its tag.
#[case("android", "flags.POSIX_SPAWN_CLOEXEC_DEFAULT", "10", Some(json!(false)), "BIO-CLOEXEC-13")]
#[case("android", "functions.posix_spawn_file_actions_addclosefrom_np", "15", Some(json!(false)), "BIO-H-ALL")]
#[case("solaris", "cases.attr-setflags-undefined-bit.libc", "11.4", None, "")]
fn documented_claims_match_their_sources(
    #[case] fam: &str,
    #[case] row: &str,
    #[case] release: &str,
    #[case] expected: Option<serde_json::Value>,
    #[case] source_key: &str,
) {
    let f = family(fam);
    let claim = f.claim(row, &Release::parse(release).unwrap());
    match (claim, expected) {
        (None, None) => {}
        (Some(c), Some(want)) => {
            assert_eq!(c.value, value(want), "{fam} {row} at {release}");
            assert!(
                c.source.starts_with(&format!("{source_key}: ")),
                "{fam} {row} at {release}: source {:?} is not {source_key}",
                c.source
            );
        }
        (got, want) => panic!("{fam} {row} at {release}: claim {got:?}, expected {want:?}"),
    }
}

/// Boundaries and states read from each libc's own history or pages (issue 29): the published
/// answer (docs/summary.json) for a cell, its boundary kind, and the states it shows.
#[rstest]
#[case("errors", "cases.exec-enoent.libc", "linux-musl", "returned:ENOENT since 0.9.13", "exact", &[])]
#[case("errors", "cases.spawnp-script-no-shebang.libc", "linux-musl", "returned:ENOEXEC since 0.9.13", "exact", &[])]
#[case("errors", "cases.fchdir-add-negative-fd.libc", "linux-musl", "add:EBADF since 1.2.3", "exact", &[])]
#[case("features", "flags.POSIX_SPAWN_SETSCHEDPARAM", "linux-musl", "ignored 0.7.11", "exact", &["ignored"])]
#[case("features", "flags.POSIX_SPAWN_SETSID", "linux-glibc", "2.26", "exact", &["needs"])]
#[case("features", "flags.POSIX_SPAWN_SETCGROUP", "linux-glibc", "2.39", "exact", &["needs"])]
#[case("features", "flags.POSIX_SPAWN_USEVFORK", "android", "9", "exact", &["needs"])]
#[case("features", "functions.posix_spawnattr_setschedparam", "android", "9", "exact", &["needs"])]
#[case("features", "functions.posix_spawnattr_setschedpolicy", "android", "9", "exact", &["needs"])]
#[case("features", "flags.POSIX_SPAWN_SETSIGMASK", "solaris", "10", "exact", &[])]
#[case("features", "functions.posix_spawn_file_actions_addfchdir", "macos", "26.0", "exact", &["needs"])]
#[case("features", "functions.posix_spawn_file_actions_addfchdir_np", "macos", "10.15", "exact", &["deprecated"])]
#[case("errors", "cases.exec-enoent.libc", "android", "child-exit:127 since 9", "exact", &[])]
#[case("features", "flags.POSIX_SPAWN_SETSID", "solaris", "11.0–11.4", "interval", &[])]
#[case("features", "functions.posix_spawn_file_actions_addchdir_np", "solaris", "11.1–11.4", "interval", &[])]
fn published_boundaries_follow_the_history(
    #[case] section: &str,
    #[case] row: &str,
    #[case] fam: &str,
    #[case] text: &str,
    #[case] kind: &str,
    #[case] states: &[&str],
) {
    let section = published_section(section);
    let rows = section["rows"].as_array().unwrap();
    let found = rows.iter().find(|r| r["id"] == row);
    let answers = found.unwrap_or_else(|| panic!("no {row} row"))["answers"].clone();
    let answers = answers.as_array().unwrap();
    let answer = answers.iter().find(|a| a["family"] == fam);
    let answer = answer.unwrap_or_else(|| panic!("no {fam} answer for {row}"));
    assert_eq!(answer["text"], text, "{answer}");
    assert_eq!(answer["boundary"]["kind"], kind, "{answer}");
    let shown: Vec<&str> = match answer["states"].as_array() {
        Some(list) => list.iter().map(|s| s["state"].as_str().unwrap()).collect(),
        None => Vec::new(),
    };
    for want in states {
        assert!(
            shown.contains(want),
            "{fam} {row}: states {shown:?} lack {want}"
        );
    }
}

/// glibc's clone3-first path dates from 2.34 (`__clone_internal`), and 2.38 added
/// CLONE_CLEAR_SIGHAND to it; FreeBSD's RFSPAWN boundary names its merge and the first release
/// branched after it (12.2), not "13.0", and says why 13.1 stays open (FBSD_1.7).
#[rstest]
#[case("linux-glibc", &["since 2.34", "2.38 added", "CLONE_CLEAR_SIGHAND"], "clone3 first since 2.38")]
#[case("freebsd", &["rS353789", "releng/12.1", "12.2", "FBSD_1.7"], "vfork before 13.0")]
fn mechanism_descriptions_name_the_right_release(
    #[case] fam: &str,
    #[case] must: &[&str],
    #[case] wrong: &str,
) {
    let f = family(fam);
    let text = &f.spec.description;
    for m in must {
        assert!(text.contains(m), "{fam}: description lacks {m:?}: {text}");
    }
    assert!(
        !text.contains(wrong),
        "{fam}: description still says {wrong:?}"
    );
}

/// Every family the summary view lists has an error-reporting claim: the exec-failure row.
#[test]
fn every_family_documents_how_a_failed_exec_is_reported() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let docs = Docs::load(&targets).unwrap();
    for f in &docs.families {
        let rows = f.rows();
        let has = rows.contains(&"cases.exec-enoent.libc")
            || rows.contains(&"cases.spawnp-script-no-shebang.libc");
        assert!(has, "{}: no error-reporting claim", f.spec.family);
    }
}

/// Error rows of the summary that no source settles (family, row): Solaris 11 is closed
/// source and the Oracle pages read give no error semantics (targets/solaris/platform.yaml
/// says so); illumos-gate's addfchdir_np is an undocumented 2025 compatibility name whose
/// userland code could not be read (targets/illumos-gate/platform.yaml says so). Any other gap
/// fails, and so does an entry here that has since been answered.
const UNSETTLED_ERROR_CELLS: &[(&str, &str)] = &[
    ("illumos-gate", "cases.fchdir-add-negative-fd.libc"),
    ("solaris", "cases.exec-enoent.libc"),
    ("solaris", "cases.dup2-add-fd-beyond-open-max.libc"),
    ("solaris", "cases.fa-close-not-open.libc"),
    ("solaris", "cases.fa-dup2-self-cloexec-visible.libc"),
    ("solaris", "cases.chdir-enoent.libc"),
    ("solaris", "cases.fchdir-add-negative-fd-posix.libc"),
    ("solaris", "cases.attr-setflags-undefined-bit.libc"),
];

/// The string `field` of every object in the JSON array `list`.
fn field_of_each<'a>(list: &'a serde_json::Value, field: &str) -> Vec<&'a str> {
    let items = list.as_array().unwrap();
    items.iter().map(|v| v[field].as_str().unwrap()).collect()
}

/// Every family of the committed summary (docs/summary.json, kept current by
/// ci/checks/45-published.sh) answers every error row, except the cells listed as unsettled.
#[test]
fn every_family_answers_every_error_row_or_says_it_is_unsettled() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/summary.json");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // The Linux kernel family answers its kernel rows only (src/published/kernel.rs), and
    // each sandbox profile its sandbox rows only (src/published/sandbox.rs).
    let mut families = field_of_each(&summary["families"], "id");
    families.retain(|f| *f != "linux-kernel" && !f.starts_with("sandbox/"));
    let errors = summary["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "errors")
        .expect("an errors section");
    let mut gaps = Vec::new();
    let mut settled = Vec::new();
    for row in errors["rows"].as_array().unwrap() {
        let id = row["id"].as_str().unwrap();
        let answered = field_of_each(&row["answers"], "family");
        for fam in &families {
            let listed = UNSETTLED_ERROR_CELLS.contains(&(*fam, id));
            match (answered.contains(fam), listed) {
                (false, false) => gaps.push(format!("{fam} {id}")),
                (true, true) => settled.push(format!("{fam} {id}")),
                _ => {}
            }
        }
    }
    assert!(gaps.is_empty(), "error cells without an answer: {gaps:?}");
    assert!(
        settled.is_empty(),
        "answered now, drop from UNSETTLED_ERROR_CELLS: {settled:?}"
    );
}

/// The committed summary's section `id` (docs/summary.json).
fn published_section(id: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/summary.json");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let sections = summary["sections"].as_array().unwrap();
    let section = sections.iter().find(|s| s["id"] == id);
    section.unwrap_or_else(|| panic!("no {id} section")).clone()
}

/// Every kernel row has run evidence on both kernels this project runs: the emulated Debian
/// 12 guests (6.1) and the build machine (6.18), each `yes` (src/published/kernel.rs; the
/// probes are spawn/src/caps/kernel_linux.rs).
#[rstest]
#[case("kernel.clone3")]
#[case("kernel.CLONE_PIDFD")]
#[case("kernel.CLONE_CLEAR_SIGHAND")]
#[case("kernel.CLONE_INTO_CGROUP")]
#[case("kernel.close_range")]
#[case("kernel.CLOSE_RANGE_CLOEXEC")]
#[case("kernel.pidfd_open")]
#[case("kernel.pidfd_send_signal")]
#[case("kernel.waitid_P_PIDFD")]
fn every_kernel_row_ran_on_both_kernels(#[case] row: &str) {
    let section = published_section("kernel");
    let rows = section["rows"].as_array().unwrap();
    let row = rows.iter().find(|r| r["id"] == row).expect("the row");
    let history = row["answers"][0]["history"].as_array().unwrap();
    for release in ["6.1", "6.18"] {
        let step = history.iter().find(|s| s["release"] == release);
        let step = step.unwrap_or_else(|| panic!("no run on {release}: {history:?}"));
        assert_eq!(step["value"], true, "{release}: {step}");
        assert_eq!(
            step["evidence"],
            serde_json::json!(["run"]),
            "{release}: {step}"
        );
    }
}

/// The kernel rows of the child-setup options (issue 23): `PR_SET_PDEATHSIG` (prctl(2) gives
/// 2.1.57; run evidence from the build machine's prctl(PR_GET_PDEATHSIG) probe) and
/// `TIOCSCTTY` (ioctl_tty(2) names no first release: an unknown start, doc evidence only),
/// each citing its man page (targets/linux-kernel/kernel.yaml).
#[rstest]
#[case("kernel.PR_SET_PDEATHSIG", "2.1.57", Some("2.1.57"), &["run", "doc"], "man2/prctl.2:1032")]
#[case("kernel.TIOCSCTTY", "yes (release?)", None, &["doc"], "man2/ioctl_tty.2:331-337")]
fn child_setup_kernel_rows(
    #[case] row: &str,
    #[case] text: &str,
    #[case] since: Option<&str>,
    #[case] evidence: &[&str],
    #[case] cite: &str,
) {
    let section = published_section("kernel");
    let rows = section["rows"].as_array().unwrap();
    let found = rows.iter().find(|r| r["id"] == row);
    let answer = &found.unwrap_or_else(|| panic!("no {row} row"))["answers"][0];
    assert_eq!(answer["text"], text, "{answer}");
    assert_eq!(answer["since"].as_str(), since, "{answer}");
    assert_eq!(answer["boundary"].is_null(), since.is_none(), "{answer}");
    assert_eq!(answer["evidence"], json!(evidence), "{answer}");
    let sources = answer["sources"].to_string();
    assert!(sources.contains(cite), "{sources}");
    if since.is_some() {
        let history = answer["history"].as_array().unwrap();
        let run = history.iter().find(|s| s["release"] == "6.18");
        let run = run.unwrap_or_else(|| panic!("no run on 6.18: {history:?}"));
        assert_eq!(
            (&run["value"], &run["evidence"]),
            (&json!(true), &json!(["run"]))
        );
    }
}

/// Each sandbox profile is a family of its own, and what the raw libc and Auto did under it
/// is run evidence (src/published/sandbox.rs; recorded by `spawnmatrix probe --sandbox` into
/// targets/reports/native-x86_64-linux-gnu.json, and by the containers for docker-default).
#[rstest]
#[case("clone3-enosys", "sandbox.libc.posix_spawn", "works")]
#[case("clone3-eperm", "sandbox.libc.posix_spawn", "error: EPERM")]
#[case("clone3-eperm", "sandbox.auto", "clone_vfork")]
#[case("no-clone-vm", "sandbox.auto", "fork")]
#[case("nproc-reached", "sandbox.auto", "error: EAGAIN")]
#[case(
    "valgrind",
    "sandbox.libc.posix_spawn_missing",
    "error lost: returned 0, the child exited 127"
)]
#[case(
    "qemu-user",
    "sandbox.libc.posix_spawn_missing",
    "error lost: returned 0, the child exited 127"
)]
#[case("clone3-enosys", "sandbox.libc.posix_spawn_missing", "error: ENOENT")]
#[case("docker-default", "sandbox.auto", "clone_vfork")]
fn each_sandbox_profile_is_a_column(#[case] profile: &str, #[case] row: &str, #[case] want: &str) {
    let section = published_section("sandbox");
    let rows = section["rows"].as_array().unwrap();
    let row = rows.iter().find(|r| r["id"] == row).expect("the row");
    let family = format!("sandbox/{profile}");
    let answers = row["answers"].as_array().unwrap();
    let answer = answers.iter().find(|a| a["family"] == family.as_str());
    let answer = answer.unwrap_or_else(|| panic!("no {family} answer"));
    assert_eq!(answer["text"], want, "{answer}");
    assert_eq!(answer["evidence"], serde_json::json!(["run"]), "{answer}");
}
