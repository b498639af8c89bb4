//! Which system call made the child, seen from outside the library (Linux): each strategy
//! spawns `/bin/true` in a copy of this binary that runs under `strace -f`, and the call that
//! returned the child's pid (its name and flags, as strace decodes them) must be the one the
//! strategy the library reports stands for. A silent fallback (a `Clone3` spawn that was
//! really a fork, an `Auto` that says `clone3` but forked) fails here, whatever the library
//! believes. Runs on the build machine and in every kernel guest (`ci/emulate.sh linux-5.10
//! --tests mechanism`); skips, with a printed reason, where strace is missing or cannot
//! trace (no ptrace in a container).
//!
//! What each strategy must look like (independently of the library's code):
//! - `clone3`: `clone3` with `CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND`;
//! - `clone_vfork`: the legacy `clone` with `CLONE_VM|CLONE_VFORK`;
//! - `posix_spawn`: `clone3` or `clone` with `CLONE_VM|CLONE_VFORK` and without
//!   `CLONE_CLEAR_SIGHAND` (glibc 2.34+ tries clone3 first, musl uses clone), or `vfork`;
//! - `fork`: `clone`, `clone3`, `fork` or `vfork`... without `CLONE_VM` (`fork` itself or a
//!   `clone` with `SIGCHLD` only, as glibc's fork makes it).

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::Stdio;

use rstest::rstest;
use spawnmatrix_spawn::{Command, Strategy};

include!("support/paths.rs");

/// Set in the traced copy: the strategy to spawn with, and where to write what happened.
const STRATEGY_VAR: &str = "SPAWNMATRIX_MECHANISM_STRATEGY";
const OUT_VAR: &str = "SPAWNMATRIX_MECHANISM_OUT";

/// The program every strategy spawns.
const TRUE: &str = "/bin/true";

fn strategy_named(name: &str) -> Strategy {
    Strategy::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .unwrap_or_else(|| panic!("no strategy {name}"))
}

/// In the traced copy (the variables set): spawns and writes `PID STRATEGY` or
/// `unsupported ERROR`. A no-op test otherwise.
#[test]
fn traced_spawn() {
    let (Ok(name), Ok(out)) = (std::env::var(STRATEGY_VAR), std::env::var(OUT_VAR)) else {
        return;
    };
    let line = match Command::new(TRUE).strategy(strategy_named(&name)).spawn() {
        Ok(mut child) => {
            let line = format!("{} {}\n", child.id(), child.strategy().name());
            assert!(child.wait().expect("wait").success());
            line
        }
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => format!("unsupported {e}\n"),
        Err(e) => panic!("spawn with {name}: {e}"),
    };
    std::fs::write(out, line).expect("write the result");
}

/// `strace` on PATH, or none.
fn strace() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("strace"))
        .find(|p| p.is_file())
}

/// One process-creating call from strace's log: name, decoded flags, returned pid.
#[derive(Debug)]
struct Created {
    call: String,
    flags: Vec<String>,
    pid: i64,
    line: String,
}

const CALLS: [&str; 4] = ["clone3", "clone", "vfork", "fork"];

/// The creating calls in an `strace -f -o` log (`PID call(args) = RET`, or split into
/// `PID call(args <unfinished ...>` and `PID <... call resumed>...) = RET`).
fn created(log: &str) -> Vec<Created> {
    let mut pending: std::collections::HashMap<String, String> = Default::default();
    let mut out = Vec::new();
    for raw in log.lines() {
        let Some((tid, rest)) = raw.trim().split_once(char::is_whitespace) else {
            continue;
        };
        let rest = rest.trim_start();
        let (text, call) = if let Some(head) = rest.strip_suffix("<unfinished ...>") {
            if let Some(call) = CALLS.iter().find(|c| head.starts_with(&format!("{c}("))) {
                pending.insert(tid.to_string(), format!("{call}\t{head}"));
            }
            continue;
        } else if let Some(resumed) = rest.strip_prefix("<... ") {
            let Some(call) = CALLS
                .iter()
                .find(|c| resumed.starts_with(&format!("{c} resumed>")))
            else {
                continue;
            };
            let Some(head) = pending.remove(tid) else {
                continue;
            };
            (format!("{head}{resumed}"), *call)
        } else if let Some(call) = CALLS.iter().find(|c| rest.starts_with(&format!("{c}("))) {
            (format!("{call}\t{rest}"), *call)
        } else {
            continue;
        };
        let Some(ret) = text.rsplit_once(" = ").map(|(_, r)| r.trim()) else {
            continue;
        };
        let Ok(pid) = ret.split_whitespace().next().unwrap_or("").parse::<i64>() else {
            continue;
        };
        // Flags: strace writes them as `flags=A|B` (clone3) or as the clone's flags
        // argument `flags=A|B|SIGCHLD`; split on the separators and keep the names.
        let flags = text
            .split(['{', '}', ',', ' ', '(', ')'])
            .filter_map(|f| f.strip_prefix("flags="))
            .flat_map(|f| f.split('|'))
            .map(str::to_string)
            .collect();
        out.push(Created {
            call: call.to_string(),
            flags,
            pid,
            line: raw.to_string(),
        });
    }
    out
}

/// Whether the call that created the child is what `strategy` stands for, and why not.
fn matches(strategy: Strategy, c: &Created) -> Result<(), String> {
    let has = |f: &str| c.flags.iter().any(|x| x == f);
    let vm_vfork = has("CLONE_VM") && has("CLONE_VFORK");
    let ok = match strategy {
        Strategy::Clone3 => c.call == "clone3" && vm_vfork && has("CLONE_CLEAR_SIGHAND"),
        Strategy::CloneVfork => c.call == "clone" && vm_vfork,
        Strategy::PosixSpawn => {
            c.call == "vfork"
                || ((c.call == "clone" || c.call == "clone3")
                    && vm_vfork
                    && !has("CLONE_CLEAR_SIGHAND"))
        }
        Strategy::Fork => c.call == "fork" || (c.call != "vfork" && !has("CLONE_VM")),
        Strategy::Auto | Strategy::Vfork => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "the library says {}, strace saw {} with {:?}",
            strategy.name(),
            c.call,
            c.flags
        ))
    }
}

/// Runs this binary's `traced_spawn` under strace with `strategy`: the strategy the library
/// reported and the call that made the child, or why it could not be checked.
fn observe(strace: &Path, strategy: Strategy) -> Result<(Strategy, Created), String> {
    let dir = std::env::temp_dir().join(format!(
        "spawnmatrix-mechanism-{}-{}",
        std::process::id(),
        strategy.name()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("strace.log");
    let out = dir.join("result");
    let run = std::process::Command::new(strace)
        .args(["-f", "-qq", "-s", "0", "-e", "signal=none"])
        .args(["-e", "trace=clone,clone3,fork,vfork"])
        .arg("-o")
        .arg(&log)
        .arg("--")
        .arg(own_exe())
        .args(["--exact", "traced_spawn", "--test-threads=1", "--nocapture"])
        .env(STRATEGY_VAR, strategy.name())
        .env(OUT_VAR, &out)
        .stdin(Stdio::null())
        .output()
        .expect("run strace");
    let result = std::fs::read_to_string(&out).unwrap_or_default();
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    std::fs::remove_dir_all(&dir).ok();
    if !run.status.success() || result.is_empty() {
        let stderr = String::from_utf8_lossy(&run.stderr);
        // strace's own words when it cannot attach (no ptrace here): not this test's subject.
        if stderr.contains("ptrace") || stderr.contains("Operation not permitted") {
            return Err(format!("skip: strace cannot trace here: {}", stderr.trim()));
        }
        panic!(
            "the traced spawn failed ({}): {stderr}\n{}",
            run.status,
            String::from_utf8_lossy(&run.stdout)
        );
    }
    let (pid, name) = result.trim().split_once(' ').expect("PID STRATEGY");
    if pid == "unsupported" {
        return Err(format!(
            "skip: {} is unsupported here: {name}",
            strategy.name()
        ));
    }
    let pid: i64 = pid.parse().expect("a pid");
    let made = created(&log_text)
        .into_iter()
        .find(|c| c.pid == pid)
        .unwrap_or_else(|| panic!("strace saw no call that returned {pid}:\n{log_text}"));
    Ok((strategy_named(name), made))
}

#[rstest]
#[case::auto(Strategy::Auto)]
#[case::posix_spawn(Strategy::PosixSpawn)]
#[case::clone3(Strategy::Clone3)]
#[case::clone_vfork(Strategy::CloneVfork)]
#[case::fork(Strategy::Fork)]
fn the_child_is_made_by_the_reported_strategy(#[case] strategy: Strategy) {
    let Some(strace) = strace() else {
        println!("skip: strace is not on PATH");
        return;
    };
    if !Path::new(TRUE).exists() {
        println!("skip: no {TRUE}");
        return;
    }
    let (reported, made) = match observe(&strace, strategy) {
        Ok(seen) => seen,
        Err(why) => {
            println!("{why}");
            return;
        }
    };
    if strategy != Strategy::Auto {
        assert_eq!(reported, strategy, "a forced strategy reported another");
    }
    println!(
        "{}: reported {}, strace: {}",
        strategy.name(),
        reported.name(),
        made.line
    );
    if let Err(why) = matches(reported, &made) {
        panic!("{why}\n{}", made.line);
    }
}

/// The log parser reads strace's two shapes (one line, and unfinished + resumed) and the
/// matcher tells the strategies apart, so a test that passes above has read something.
#[test]
fn the_log_parser_and_matcher_tell_strategies_apart() {
    let log = "\
100 clone3({flags=CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND, exit_signal=SIGCHLD, stack=0x7f, stack_size=0x9000}, 88 <unfinished ...>
101 execve(\"/bin/true\", [\"/bin/true\"], 0x0 /* 0 vars */) = 0
100 <... clone3 resumed>) = 101
100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 102
100 clone(child_stack=0x7f, flags=CLONE_VM|CLONE_VFORK|SIGCHLD <unfinished ...>
100 <... clone resumed>) = 103
100 clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x7f, stack_size=0x9000}, 88) = 104
";
    let c = created(log);
    let by = |pid| c.iter().find(|c| c.pid == pid).unwrap();
    assert_eq!(c.len(), 4, "{c:?}");
    let table = [
        (101, Strategy::Clone3),
        (102, Strategy::Fork),
        (103, Strategy::CloneVfork),
        (104, Strategy::PosixSpawn),
    ];
    for (pid, right) in table {
        for s in [
            Strategy::Clone3,
            Strategy::CloneVfork,
            Strategy::PosixSpawn,
            Strategy::Fork,
        ] {
            let want = s == right || (pid == 103 && s == Strategy::PosixSpawn);
            assert_eq!(matches(s, by(pid)).is_ok(), want, "{pid} as {}", s.name());
        }
    }
}
