//! The `sandbox` rows this machine's column gets (`spawnmatrix sandbox PROFILE --observe`,
//! collected by the main job with `sandbox::record`): the whole recorded table, so a profile
//! whose `Auto` choice, forced answers or raw-libc answers change fails here, not silently in
//! the matrix.

use rstest::rstest;
use spawnmatrix::report::SandboxRun;
use spawnmatrix::sandbox::{cannot_run, record, Profile};

/// `posix_spawn` under `clone3` → `EPERM`: glibc >= 2.34 tries clone3 and gives up on EPERM
/// (moby/moby#42680); musl's uses `clone` and works.
const POSIX_SPAWN_UNDER_CLONE3_EPERM: &str = match cfg!(target_env = "musl") {
    true => "works",
    false => "unsupported",
};

/// Forced `clone3` at the process limit: `EAGAIN` where this build has a clone3 trampoline,
/// else `Unsupported` as everywhere on that architecture.
const NO_CLONE3_HERE: &str = match crate::trampoline::CLONE3_TRAMPOLINE {
    true => "error: EAGAIN",
    false => "unsupported",
};

/// Under valgrind and qemu-user the exec errors of glibc's `posix_spawn` are lost (it reports
/// through shared memory), so its probe refuses it; musl's reports through a pipe and works.
const POSIX_SPAWN_UNDER_FAKE_VFORK: &str = match cfg!(target_env = "musl") {
    true => "works",
    false => "unsupported",
};
const AUTO_UNDER_FAKE_VFORK: &str = match cfg!(target_env = "musl") {
    true => "posix_spawn",
    false => "fork",
};

/// The raw libc's posix_spawn under `clone3` → `EPERM` and with no `CLONE_VM`: glibc's
/// (clone3, then clone with CLONE_VM) is refused; musl's uses clone, refused only without
/// CLONE_VM.
const LIBC_UNDER_CLONE3_EPERM: [&str; 2] = match cfg!(target_env = "musl") {
    true => ["works", "error: ENOENT"],
    false => ["error: EPERM", "error: EPERM"],
};
/// Under valgrind and qemu-user glibc's posix_spawn returns 0 for a program that does not
/// exist (the exec error it writes to shared memory is lost); musl's pipe still reports it.
const LIBC_UNDER_FAKE_VFORK: [&str; 2] = match cfg!(target_env = "musl") {
    true => ["works", "error: ENOENT"],
    false => ["works", "error lost: returned 0, the child exited 127"],
};

#[rstest]
#[case::valgrind(Profile::Valgrind, AUTO_UNDER_FAKE_VFORK, ["unsupported", "unsupported", POSIX_SPAWN_UNDER_FAKE_VFORK, "works"], LIBC_UNDER_FAKE_VFORK)]
#[case::qemu_user(Profile::QemuUser, AUTO_UNDER_FAKE_VFORK, ["unsupported", "unsupported", POSIX_SPAWN_UNDER_FAKE_VFORK, "works"], LIBC_UNDER_FAKE_VFORK)]
#[case::clone3_enosys(Profile::Clone3Enosys, "clone_vfork", ["unsupported", "works", "works", "works"], ["works", "error: ENOENT"])]
#[case::clone3_eperm(Profile::Clone3Eperm, "clone_vfork", ["unsupported", "works", POSIX_SPAWN_UNDER_CLONE3_EPERM, "works"], LIBC_UNDER_CLONE3_EPERM)]
#[case::no_clone_vm(Profile::NoCloneVm, "fork", ["unsupported", "unsupported", "unsupported", "works"], ["error: EPERM", "error: EPERM"])]
// At the process limit every strategy fails with EAGAIN, and none turns it into Unsupported.
#[case::nproc_reached(Profile::NprocReached, "error: EAGAIN", [NO_CLONE3_HERE, "error: EAGAIN", "error: EAGAIN", "error: EAGAIN"], ["error: EAGAIN", "error: EAGAIN"])]
fn recorded_rows(
    #[case] profile: Profile,
    #[case] auto: &str,
    // clone3, clone_vfork, posix_spawn, fork
    #[case] forced: [&str; 4],
    // the raw libc: posix_spawn of the true helper, of a program that does not exist
    #[case] libc: [&str; 2],
) {
    // Recorded once for all cases (valgrind and qemu-user make a round take a while).
    static RUNS: std::sync::OnceLock<std::collections::BTreeMap<String, SandboxRun>> =
        std::sync::OnceLock::new();
    let runs = RUNS.get_or_init(|| {
        record(env!("CARGO_BIN_EXE_spawnmatrix").as_ref()).expect("recording the profiles")
    });
    // One run per profile, but none for an environment whose tool cannot run here (not
    // installed, or valgrind without /proc).
    let why_not = |p: Profile| p.wrapper().and_then(|tool| cannot_run(&tool[0]));
    let want: Vec<&str> = Profile::ALL
        .into_iter()
        .filter(|&p| why_not(p).is_none())
        .map(Profile::name)
        .collect();
    let mut got: Vec<&str> = runs.keys().map(String::as_str).collect();
    got.sort_by_key(|name| want.iter().position(|w| w == name));
    assert_eq!(got, want, "one run per profile");
    let Some(run) = runs.get(profile.name()) else {
        let why = why_not(profile).unwrap_or_default();
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: recorded_rows({profile}): no row: {why}"
        );
        return;
    };
    assert_eq!(run.auto, auto, "the strategy Auto took under {profile}");
    let want = ["clone3", "clone_vfork", "posix_spawn", "fork"]
        .into_iter()
        .zip(forced)
        .map(|(s, o)| (s.to_string(), o.to_string()))
        .collect();
    assert_eq!(run.forced, want, "forced strategies under {profile}");
    let want = ["posix_spawn", "posix_spawn_missing"]
        .into_iter()
        .zip(libc)
        .map(|(s, o)| (s.to_string(), o.to_string()))
        .collect();
    assert_eq!(run.libc, want, "the raw libc under {profile}");
}
