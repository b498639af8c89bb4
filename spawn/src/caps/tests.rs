use rstest::rstest;

use super::detect;

#[test]
fn every_function_and_flag_is_reported() {
    let caps = detect();
    for name in crate::sys::symbols::SPAWN_SYMBOLS
        .iter()
        .chain(crate::sys::flags::ALL)
    {
        assert!(caps.contains_key(*name), "{name} missing");
    }
}

#[rstest]
#[case("posix_spawn")]
#[case("posix_spawnp")]
#[case("POSIX_SPAWN_SETPGROUP")]
#[case("POSIX_SPAWN_SETSIGMASK")]
#[case("POSIX_SPAWN_SETSIGDEF")]
#[case("POSIX_SPAWN_RESETIDS")]
fn posix_basics_are_available(#[case] name: &str) {
    let cap = &detect()[name];
    assert!(cap.available, "{name}: {cap:?}");
}

/// A value no Linux libc defines is refused, so "accepted" means something there.
#[cfg(target_os = "linux")]
#[test]
fn an_undefined_flag_value_is_refused() {
    use crate::sys::flags::{DeclaredBy, SpawnFlag};
    let bogus = SpawnFlag {
        name: "POSIX_SPAWN_BOGUS",
        value: 0x4000,
        declared_by: DeclaredBy::LibcCrate,
    };
    assert_eq!(super::flags::offer(bogus).how, "setflags-EINVAL");
}

/// This machine's glibc (2.36): addchdir_np (2.29) and addclosefrom_np (2.34), by dlsym.
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    not(target_feature = "crt-static")
))]
#[rstest]
#[case("posix_spawn_file_actions_addchdir_np", true, "dlsym")]
#[case("posix_spawn_file_actions_addclosefrom_np", true, "dlsym")]
#[case("POSIX_SPAWN_SETSID", true, "setflags-accepted")]
#[case("POSIX_SPAWN_CLOEXEC_DEFAULT", false, "not-declared-for-target")]
fn glibc(#[case] name: &str, #[case] available: bool, #[case] how: &str) {
    let cap = &detect()[name];
    assert_eq!(
        (cap.available, cap.how.as_str()),
        (available, how),
        "{name}: {cap:?}"
    );
}

/// Rust's bundled musl: addchdir_np (1.1.24) but no addclosefrom_np; no SETCGROUP value.
#[cfg(all(target_os = "linux", target_env = "musl"))]
#[rstest]
#[case("posix_spawn_file_actions_addchdir_np", true, "static-link")]
#[case("posix_spawn_file_actions_addclosefrom_np", false, "static-link")]
#[case("POSIX_SPAWN_SETSID", true, "setflags-accepted")]
#[case("POSIX_SPAWN_SETCGROUP", false, "not-declared-for-target")]
fn musl(#[case] name: &str, #[case] available: bool, #[case] how: &str) {
    let cap = &detect()[name];
    assert_eq!(
        (cap.available, cap.how.as_str()),
        (available, how),
        "{name}: {cap:?}"
    );
}

/// Every kernel feature is reported, and its answer is one of the vocabulary's: an unknown
/// (`kernel-unprobed`, `kernel-refused`, `kernel-probe-failed`) is never `available`. Which
/// features a given kernel release has is checked against the documented first releases by
/// `tests/kernel_releases.rs` (the releases live once, in targets/linux-kernel/kernel.yaml).
#[cfg(target_os = "linux")]
#[rstest]
#[case("clone3")]
#[case("CLONE_PIDFD")]
#[case("CLONE_CLEAR_SIGHAND")]
#[case("CLONE_INTO_CGROUP")]
#[case("pidfd_open")]
#[case("pidfd_send_signal")]
#[case("waitid_P_PIDFD")]
#[case("close_range")]
#[case("CLOSE_RANGE_CLOEXEC")]
#[case("PR_SET_PDEATHSIG")]
#[case("PIDFD_GET_INFO")]
#[case("PIDFD_INFO_EXIT")]
#[case("CLONE_AUTOREAP")]
#[case("CLONE_NNP")]
#[case("CLONE_PIDFD_AUTOKILL")]
fn linux_kernel_features(#[case] name: &str) {
    let cap = &detect()[name];
    let known = [
        "kernel-syscall",
        "kernel-clone3-child",
        "kernel-ioctl",
    ];
    let unknown = [super::UNPROBED, super::REFUSED, super::PROBE_FAILED];
    assert!(
        known.contains(&cap.how.as_str()) || unknown.contains(&cap.how.as_str()),
        "{name}: {cap:?}"
    );
    assert!(
        !(cap.available && unknown.contains(&cap.how.as_str())),
        "{name}: {cap:?}"
    );
    println!("{name}: {cap:?}");
}

/// The probes change nothing in this process: `no_new_privs` stays as it was (the CLONE_NNP
/// and CLONE_PIDFD_AUTOKILL probes set it in their children only).
#[cfg(target_os = "linux")]
#[test]
fn kernel_probes_leave_no_new_privs_alone() {
    // SAFETY: PR_GET_NO_NEW_PRIVS only reads this process's flag.
    let before = unsafe { libc::prctl(libc::PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) };
    let _ = detect();
    // SAFETY: as above.
    let after = unsafe { libc::prctl(libc::PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) };
    assert_eq!(before, after, "no_new_privs changed");
}
