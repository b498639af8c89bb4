//! `Command::parent_death_signal` delivered for real when the spawning *process* dies, where
//! the library implements it: FreeBSD's `procctl(PROC_PDEATHSIG_CTL)` (the one off-Linux path,
//! `child_side/calls/libc_calls.rs`) and Linux's `prctl(PR_SET_PDEATHSIG)`.
//!
//! A middle process (this test binary re-executed) spawns a shell with the signal set, waits
//! until the shell's `TERM` trap is in place, and exits; the shell records the signal in a
//! file. A second shell spawned without the setting records nothing, so the test can fail
//! (no other signal reaches an orphan here: the middle leads no session with a terminal).

#![cfg(any(target_os = "linux", target_os = "freebsd"))]

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use spawnmatrix_spawn::{Command, Strategy};

#[path = "support/strategies.rs"]
mod strategies;
use strategies::STRATEGIES;

// own_exe: this binary's path without /proc too (FreeBSD mounts none by default).
include!("support/paths.rs");

/// Set in the middle process to `STRATEGY:SET:DIR`.
const MIDDLE: &str = "SPAWNMATRIX_PDEATH_MIDDLE";

/// The grandchild: writes its pid to `ready` once its trap is set, `TERM` to `got` on
/// SIGTERM, and ends by itself after about 60 s whatever happens.
const SHELL: &str = r#"trap 'echo TERM > "$1"; exit 0' TERM
echo $$ > "$2.tmp" && mv "$2.tmp" "$2"
i=0; while [ $i -lt 60 ]; do sleep 1; i=$((i+1)); done"#;

/// The middle process's part: spawn the shell, wait for its trap, exit at once.
fn middle(spec: &str) -> ! {
    let mut parts = spec.splitn(3, ':');
    let strategy: Strategy = parts.next().unwrap().parse().expect("strategy");
    let set = parts.next() == Some("1");
    let dir = Path::new(parts.next().unwrap());
    let mut c = Command::new("sh");
    c.args(["-c", SHELL, "sh"])
        .arg(dir.join("got"))
        .arg(dir.join("ready"))
        .strategy(strategy);
    if set {
        c.parent_death_signal(libc::SIGTERM);
    }
    let child = c.spawn().unwrap_or_else(|e| {
        eprintln!("{strategy}: {e}");
        // A forced strategy this kernel refuses (clone3 under a seccomp filter, say).
        let refused = e.kind() == std::io::ErrorKind::Unsupported && strategy != Strategy::Auto;
        std::process::exit(if refused { 5 } else { 3 })
    });
    if !poll(Duration::from_secs(30), || dir.join("ready").exists()) {
        eprintln!("{strategy}: the shell never got ready");
        std::process::exit(4)
    }
    // The grandchild stays unreaped by this process: it is reparented when this one exits.
    std::mem::forget(child);
    std::process::exit(0)
}

fn poll(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done()
}

/// Runs the middle process for `strategy`; returns whether the grandchild got SIGTERM
/// within `limit` after the middle's exit, killing the grandchild if it did not (`None`,
/// printed, where the forced strategy is refused here).
fn run(strategy: Strategy, set: bool, limit: Duration) -> Option<bool> {
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new(own_exe())
        .args([
            "the_grandchild_gets_the_signal_when_its_parent_process_exits",
            "--exact",
        ])
        .env(
            MIDDLE,
            format!("{strategy}:{}:{}", u8::from(set), dir.path().display()),
        )
        .status()
        .unwrap();
    if status.code() == Some(5) {
        println!("skipped: {strategy} refused here");
        return None;
    }
    assert!(status.success(), "{strategy}: the middle process {status}");
    let got = poll(limit, || {
        fs::read_to_string(dir.path().join("got")).is_ok_and(|s| s.trim() == "TERM")
    });
    if !got {
        let pid: libc::pid_t = fs::read_to_string(dir.path().join("ready"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SAFETY: a plain kill of the grandchild this test made (still running: no TERM).
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    Some(got)
}

#[test]
fn the_grandchild_gets_the_signal_when_its_parent_process_exits() {
    if let Ok(spec) = std::env::var(MIDDLE) {
        middle(&spec);
    }
    // posix_spawn cannot express the setting (child_setup.rs checks it refuses).
    let tried: Vec<Strategy> = STRATEGIES
        .into_iter()
        .filter(|s| s.is_available() && *s != Strategy::PosixSpawn)
        .collect();
    assert!(tried.contains(&Strategy::Auto) && tried.contains(&Strategy::Fork));
    for strategy in tried {
        assert_ne!(
            run(strategy, true, Duration::from_secs(30)),
            Some(false),
            "{strategy}: the grandchild outlived its parent without SIGTERM"
        );
    }
    // The control: without the setting nothing signals the orphan.
    assert_eq!(
        run(Strategy::Auto, false, Duration::from_secs(3)),
        Some(false),
        "an orphan got SIGTERM without parent_death_signal: the test above proves nothing"
    );
}
