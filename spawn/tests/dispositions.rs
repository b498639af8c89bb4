//! The child's signal dispositions are the same under every strategy, read from the kernel
//! (`SigIgn` and `SigCgt` in the child's `/proc/self/status`), not through libc, whose
//! `sigaction` and `sigismember` hide the numbers it keeps for itself (glibc 32 and 33, musl
//! 32 to 34). The crate docs: caught signals become `SIG_DFL`, `SIGPIPE` too, other ignored
//! signals stay ignored; so the child ignores exactly what this process ignores, less
//! `SIGPIPE`.

#![cfg(target_os = "linux")]

use spawnmatrix_spawn::{Command, Stdio, Strategy};

/// A `/proc/self/status` mask line (`SigIgn:`, `SigCgt:`) as the signal numbers it holds.
fn signals_in(status: &str, field: &str) -> Vec<u32> {
    let hex = status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .unwrap_or_else(|| panic!("no {field} line in {status}"))
        .trim();
    let bits = u128::from_str_radix(hex, 16).expect("a hex mask");
    (1..=128).filter(|s| bits & (1 << (s - 1)) != 0).collect()
}

/// The child's own status file: `cat` reads `/proc/self/status` as itself.
fn child_status(strategy: Strategy) -> String {
    let out = Command::new("cat")
        .arg("/proc/self/status")
        .stdout(Stdio::piped())
        .strategy(strategy)
        .output()
        .unwrap_or_else(|e| panic!("{strategy}: {e}"));
    assert!(out.status.success(), "{strategy}: {:?}", out.status);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_strategy_gives_the_child_the_same_dispositions_as_the_kernel_sees_them() {
    let Ok(own) = std::fs::read_to_string("/proc/self/status") else {
        println!("skipped: no /proc here to read dispositions from the kernel");
        return;
    };
    let want: Vec<u32> = signals_in(&own, "SigIgn:")
        .into_iter()
        .filter(|&s| s != libc::SIGPIPE as u32)
        .collect();
    let mut caught = None;
    for strategy in [
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::PosixSpawn,
        Strategy::Fork,
        Strategy::Auto,
    ] {
        if !strategy.is_available() {
            println!("{strategy}: not available here");
            continue;
        }
        let status = child_status(strategy);
        let ignored = signals_in(&status, "SigIgn:");
        assert_eq!(ignored, want, "{strategy}: the child's ignored signals");
        // Whatever `cat` installs itself, the same program under every strategy.
        let cgt = signals_in(&status, "SigCgt:");
        assert_eq!(
            caught.get_or_insert_with(|| cgt.clone()),
            &cgt,
            "{strategy}: caught"
        );
    }
}
