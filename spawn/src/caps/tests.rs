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

/// This machine's kernel (6.x) has every kernel feature the table lists: clone3 (5.3),
/// CLONE_PIDFD (5.2), CLONE_CLEAR_SIGHAND (5.5), CLONE_INTO_CGROUP (5.7), pidfd_open (5.3),
/// pidfd_send_signal (5.1), waitid(P_PIDFD) (5.4), close_range (5.9) and
/// CLOSE_RANGE_CLOEXEC (5.11), and prctl's PR_SET_PDEATHSIG (2.1.57).
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
fn linux_kernel_features(#[case] name: &str) {
    let cap = &detect()[name];
    assert!(cap.available, "{name}: {cap:?}");
}
