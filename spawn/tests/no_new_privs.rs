//! `Command::no_new_privs` (issue 31): the child runs with the flag under every strategy that
//! can express it and `Unsupported` under the others, and the mechanism is the one the docs
//! name: clone3's `CLONE_NNP` where the kernel knows it (Linux 7.1), the child's
//! `prctl(PR_SET_NO_NEW_PRIVS)` otherwise. The mechanism is seen from outside the library: a
//! seccomp filter makes that `prctl` fail with `EDOM`, so a child that calls it fails the
//! spawn, and one that got the flag from clone3 does not.

#![cfg(any(target_os = "linux", target_os = "android"))]

use std::io;

use rstest::rstest;
use spawnmatrix_spawn::os::unix::process::CommandExt as _;
use spawnmatrix_spawn::{Command, Strategy};

#[path = "support/isolated.rs"]
mod isolated;
#[cfg(target_os = "linux")]
#[path = "support/seccomp.rs"]
mod seccomp;

/// This thread's own `no_new_privs`.
fn own_nnp() -> libc::c_int {
    // SAFETY: PR_GET_NO_NEW_PRIVS only reads the flag.
    unsafe { libc::prctl(libc::PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) }
}

/// The `NoNewPrivs:` value a child spawned with `strategy` reads from its own
/// `/proc/self/status`; `Ok(None)` where the field is not there (no `/proc`, or a kernel
/// before 4.10).
fn child_nnp(strategy: Strategy, on: bool) -> io::Result<Option<String>> {
    let out = Command::new("cat")
        .arg("/proc/self/status")
        .no_new_privs(on)
        .strategy(strategy)
        .output()?;
    if !out.status.success() && std::fs::metadata("/proc/self").is_err() {
        return Ok(None); // a bare root: cat had no file to read
    }
    assert!(out.status.success(), "{strategy}: cat: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text
        .lines()
        .find_map(|l| l.strip_prefix("NoNewPrivs:"))
        .map(|v| v.trim().to_string()))
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[case(Strategy::Clone3)]
#[case(Strategy::CloneVfork)]
fn the_child_runs_with_no_new_privs(#[case] strategy: Strategy) {
    if own_nnp() == 1 {
        println!("skipped: this process has no_new_privs already, so every child has it");
        return;
    }
    let with = match child_nnp(strategy, true) {
        Err(e) if e.kind() == io::ErrorKind::Unsupported && strategy == Strategy::Clone3 => {
            println!("skipped: clone3 refused here: {e}");
            return;
        }
        r => r.unwrap_or_else(|e| panic!("{strategy}: {e}")),
    };
    let Some(with) = with else {
        println!("skipped: no NoNewPrivs field in /proc/self/status here");
        return;
    };
    assert_eq!(with, "1", "{strategy}: the child has no no_new_privs");
    let without = child_nnp(strategy, false).expect("spawn without the option");
    assert_eq!(
        without.as_deref(),
        Some("0"),
        "{strategy}: set without being asked"
    );
    assert_eq!(own_nnp(), 0, "{strategy}: the parent's flag changed");
}

#[test]
fn no_new_privs_under_forced_posix_spawn_is_unsupported() {
    let err = Command::new("true")
        .no_new_privs(true)
        .strategy(Strategy::PosixSpawn)
        .status()
        .expect_err("posix_spawn has no attribute for no_new_privs");
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains("no_new_privs"), "{err}");
}

#[test]
fn no_new_privs_is_refused_by_exec_which_leaves_this_process_alone() {
    let before = own_nnp();
    // A program that does not exist: were the option not refused, exec would fail with
    // ENOENT after this process had set the flag.
    let err = Command::new("/nonexistent/program")
        .no_new_privs(true)
        .exec();
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
    assert_eq!(own_nnp(), before, "exec set no_new_privs on this process");
}

/// The offset of `args[0]`'s low 32 bits in `struct seccomp_data` (nr, arch, ip, args).
#[cfg(target_os = "linux")] // the libc crate has no BPF constants for Android
const ARG0_LOW: u32 = if cfg!(target_endian = "little") {
    16
} else {
    20
};

/// Installs a filter on every thread of this (re-executed) process under which
/// `prctl(PR_SET_NO_NEW_PRIVS, ...)` answers `EDOM` and everything else is allowed. Sets
/// `no_new_privs` on this process first, as seccomp requires without `CAP_SYS_ADMIN`.
#[cfg(target_os = "linux")] // the libc crate has no BPF constants for Android
fn refuse_setting_nnp() {
    use seccomp::insn;
    seccomp::install(&[
        insn(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, 0),
        insn(
            libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
            0,
            3,
            libc::SYS_prctl as u32,
        ),
        insn(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, ARG0_LOW),
        insn(
            libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
            0,
            1,
            libc::PR_SET_NO_NEW_PRIVS as u32,
        ),
        insn(
            libc::BPF_RET | libc::BPF_K,
            0,
            0,
            libc::SECCOMP_RET_ERRNO | libc::EDOM as u32,
        ),
        insn(libc::BPF_RET | libc::BPF_K, 0, 0, libc::SECCOMP_RET_ALLOW),
    ]);
    // The filter works: setting the flag (again) is refused.
    // SAFETY: a plain prctl.
    assert_eq!(
        unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) },
        -1
    );
    assert_eq!(io::Error::last_os_error().raw_os_error(), Some(libc::EDOM));
}

/// Under the filter: a strategy whose child calls `prctl` fails with `EDOM`; clone3 where
/// the kernel knows `CLONE_NNP` spawns, its child never having called it. On a kernel
/// without `CLONE_NNP` (6.18 and before) clone3 must take the fallback, and fail.
#[cfg(target_os = "linux")] // the libc crate has no BPF constants for Android
#[test]
fn no_new_privs_comes_from_clone_nnp_where_the_kernel_has_it_else_from_prctl() {
    isolated::isolated(
        "no_new_privs_comes_from_clone_nnp_where_the_kernel_has_it_else_from_prctl",
        || {
            let caps = spawnmatrix_spawn::caps::detect();
            let clone3 = caps.get("clone3").is_some_and(|c| c.available)
                && caps.get("crate.clone3").is_some_and(|c| c.available);
            let nnp = caps.get("CLONE_NNP").expect("a CLONE_NNP row");
            println!("kernel: clone3 {clone3}, CLONE_NNP {nnp:?}");
            refuse_setting_nnp();
            let spawn = |strategy: Strategy, on: bool| {
                Command::new("true")
                    .no_new_privs(on)
                    .strategy(strategy)
                    .status()
            };
            for strategy in [Strategy::Fork, Strategy::CloneVfork, Strategy::Clone3] {
                // The filter hits only that prctl: a spawn without the option runs.
                match spawn(strategy, false) {
                    Err(e) if strategy == Strategy::Clone3 && !clone3 => {
                        println!("clone3 refused here ({e}): nothing more to see");
                        continue;
                    }
                    r => assert!(r.expect("spawn").success(), "{strategy}"),
                }
                let r = spawn(strategy, true);
                if strategy == Strategy::Clone3 && nnp.available {
                    println!("{strategy}: CLONE_NNP, no prctl: {r:?}");
                    assert!(r.expect("CLONE_NNP spawns").success(), "{strategy}");
                } else {
                    println!("{strategy}: prctl in the child: {r:?}");
                    let e = r.expect_err("the child's prctl must have been refused");
                    assert_eq!(e.raw_os_error(), Some(libc::EDOM), "{strategy}: {e}");
                }
            }
        },
    );
}
