//! Seccomp profiles: what `Auto` takes and which strategies must refuse under each.

use std::io::ErrorKind;

use rstest::rstest;
use spawnmatrix::sandbox::Profile;
use spawnmatrix::spawn::{Command, Strategy};

use super::strategies::FORCEABLE;
use super::subprocess::isolated;

/// Under `profile`: `Auto` works and takes `auto_takes`; each strategy in `refused` answers
/// `Unsupported` and says it is unavailable; every other one works and says it is available.
/// `posix_spawn` is checked for consistency only, since whether the libc's own clone
/// survives the filter depends on the libc (glibc >= 2.34 tries clone3 first and gives up on
/// `EPERM`; musl uses `clone`).
#[rstest]
#[case::clone3_enosys(Profile::Clone3Enosys, Strategy::CloneVfork, &[Strategy::Clone3])]
#[case::clone3_eperm(Profile::Clone3Eperm, Strategy::CloneVfork, &[Strategy::Clone3])]
#[case::no_clone_vm(
    Profile::NoCloneVm,
    Strategy::Fork,
    &[Strategy::Clone3, Strategy::CloneVfork, Strategy::PosixSpawn]
)]
fn under_seccomp_profile(
    #[case] profile: Profile,
    #[case] auto_takes: Strategy,
    #[case] refused: &[Strategy],
) {
    let name = format!("seccomp::under_seccomp_profile::{}", case_name(profile));
    isolated(&name, || {
        let program = spawnmatrix::child::true_path().expect("spawnmatrix-true");
        profile.apply().expect("installing the seccomp filter");
        for strategy in FORCEABLE {
            let r = Command::new(&program).strategy(strategy).spawn();
            let available = strategy.is_available();
            match r {
                Ok(mut child) => {
                    println!("{profile}: {strategy} works (took {})", child.strategy());
                    assert!(available, "{strategy} works but says it is unavailable");
                    assert!(child.wait().expect("wait").success());
                    if strategy == Strategy::Auto {
                        assert_eq!(child.strategy(), auto_takes, "Auto under {profile}");
                    } else {
                        assert_eq!(child.strategy(), strategy);
                    }
                    assert!(!refused.contains(&strategy), "{strategy} must refuse");
                }
                Err(e) => {
                    println!("{profile}: {strategy} refuses: {e}");
                    assert_eq!(e.kind(), ErrorKind::Unsupported, "{strategy}: {e}");
                    assert!(!available, "{strategy} refuses but says it is available");
                    let libc_dependent = strategy == Strategy::PosixSpawn;
                    assert!(
                        refused.contains(&strategy) || libc_dependent,
                        "{strategy} must work under {profile}"
                    );
                }
            }
        }
        // What was learned stays learned: a second round refuses the same way.
        for &strategy in refused {
            let e = Command::new(&program)
                .strategy(strategy)
                .status()
                .expect_err("still refused");
            assert_eq!(e.kind(), ErrorKind::Unsupported);
        }
    });
}

/// rstest's name for the case of `profile` (numbered in the order of the cases above).
fn case_name(profile: Profile) -> String {
    let n = Profile::ALL.iter().position(|&p| p == profile).unwrap() + 1;
    format!("case_{n}_{}", profile.name().replace('-', "_"))
}
