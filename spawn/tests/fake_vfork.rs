//! Environments that run `CLONE_VM|CLONE_VFORK` as a plain fork (valgrind, qemu-user), where an
//! error the child writes to shared memory never reaches the parent. `ci/checks/48-fake-vfork.sh`
//! runs this binary under both with `SPAWNMATRIX_FAKE_VFORK` naming the tool; `cargo test` runs
//! it natively, where memory is shared. Either way:
//!
//! - every error is still returned, under every strategy (none comes back as a child exiting
//!   127);
//! - under an emulator `Auto` has found that memory is not shared (the clone probes' sentinel
//!   never arrived), remembered it, and takes a strategy that reports errors another way;
//! - a forced `CLONE_VM` strategy answers `Unsupported` there.

#![cfg(target_os = "linux")]

use std::io::ErrorKind;

use rstest::rstest;
use spawnmatrix_spawn::{Command, Strategy};

include!("support/paths.rs");

/// The emulator this runs under, if any (set by the check script).
fn emulator() -> Option<String> {
    std::env::var("SPAWNMATRIX_FAKE_VFORK").ok()
}

const CLONE_VM_STRATEGIES: [Strategy; 2] = [Strategy::Clone3, Strategy::CloneVfork];

/// A missing program, a directory that is not one and an fd beyond any limit: each must be
/// the child's errno, or `Unsupported` from a strategy this process cannot use.
#[rstest]
fn every_error_is_returned(
    #[values(
        Strategy::Auto,
        Strategy::PosixSpawn,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::Fork
    )]
    strategy: Strategy,
    #[values("missing", "cwd", "fd")] failure: &str,
) {
    let mut c = Command::new(true_program());
    let want = match failure {
        "missing" => {
            c = Command::new("/nonexistent/spawnmatrix-program");
            libc::ENOENT
        }
        "cwd" => {
            c.current_dir("/etc/passwd");
            libc::ENOTDIR
        }
        _ => {
            c.fd(1 << 30, std::fs::File::open("/dev/null").unwrap());
            libc::EBADF
        }
    };
    match c.strategy(strategy).spawn() {
        Ok(mut child) => panic!(
            "{strategy}: spawned, exiting with {:?}, where errno {want} was due",
            child.wait()
        ),
        Err(e) if !strategy.is_available() => {
            assert_eq!(e.kind(), ErrorKind::Unsupported, "{strategy}: {e}")
        }
        Err(e) => assert_eq!(e.raw_os_error(), Some(want), "{strategy}: {e}"),
    }
}

/// Under an emulator the `CLONE_VM` strategies are refused (forced: `Unsupported`) and `Auto`
/// takes another one; natively (x86_64, aarch64 with their trampolines) `Auto` takes clone3.
#[rstest]
fn auto_knows_whether_memory_is_shared() {
    let mut child = Command::new(true_program()).spawn().unwrap();
    assert!(child.wait().unwrap().success());
    let took = child.strategy();
    match emulator() {
        Some(tool) => {
            assert!(
                !CLONE_VM_STRATEGIES.contains(&took),
                "{tool}: Auto took {took}"
            );
            for s in CLONE_VM_STRATEGIES {
                assert!(!s.is_available(), "{tool}: {s} is offered");
                let e = Command::new(true_program())
                    .strategy(s)
                    .spawn()
                    .unwrap_err();
                assert_eq!(e.kind(), ErrorKind::Unsupported, "{tool}: {s}: {e}");
            }
            // Remembered: asking again creates no process and gives the same answer.
            assert!(!Strategy::CloneVfork.is_available());
            println!("{tool}: Auto took {took}");
        }
        None => assert!(
            CLONE_VM_STRATEGIES.contains(&took),
            "natively Auto must take a CLONE_VM strategy, took {took}"
        ),
    }
}
