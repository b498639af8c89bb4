//! Runs that one spawn cannot express: spawning from many threads, spawning under a signal
//! flood, and spawning from a forked process with other identities.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};

use serde_json::json;

use super::case::{Case, FloodTarget};
use super::checks::Findings;
use super::names;
use super::outcome::Outcome;
use super::plan::Plan;
use super::setup;
use super::subject::{self, Spawner, Variant};
use super::template::Vars;
use super::trial::{absorb, spawn_and_check, Run};

/// Runs `body` in a forked copy of the (single-threaded) runner and returns its run, so the
/// runner itself keeps its identity for cleanup.
pub fn in_forked_process(variant: &Variant, body: impl FnOnce() -> Result<Run, String>) -> Run {
    let failed = |message: String| {
        let mut run = Run {
            variant: variant.label(),
            outcome: Outcome::Skipped("setup-failed".into()).to_string(),
            facts: BTreeMap::new(),
            failures: vec![message],
            notes: Vec::new(),
        };
        run.notes.push("run in a forked runner".into());
        run
    };
    let mut ends = [0; 2];
    // SAFETY: `ends` has room for two fds; both are owned right after.
    if unsafe { libc::pipe(ends.as_mut_ptr()) } != 0 {
        return failed(format!("pipe: {}", std::io::Error::last_os_error()));
    }
    // SAFETY: both fds were just created and are owned from here on; close-on-exec so the
    // forked runner's own children do not inherit them (the runner is single-threaded).
    let (read_end, write_end) = unsafe {
        libc::fcntl(ends[0], libc::F_SETFD, libc::FD_CLOEXEC);
        libc::fcntl(ends[1], libc::F_SETFD, libc::FD_CLOEXEC);
        (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1]))
    };
    // SAFETY: the runner is single-threaded here, so the forked copy may use the allocator.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return failed(format!("fork: {}", std::io::Error::last_os_error()));
    }
    if pid == 0 {
        drop(read_end);
        // A panic must not unwind into the runner's own code in this copy.
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body))
            .unwrap_or_else(|_| Err("the forked runner panicked".into()))
            .unwrap_or_else(failed);
        let bytes = serde_json::to_vec(&run).unwrap_or_default();
        let mut out = std::fs::File::from(write_end);
        let code = if out.write_all(&bytes).is_ok() { 0 } else { 1 };
        // SAFETY: ends the forked copy without running the runner's exit handlers twice.
        unsafe { libc::_exit(code) };
    }
    drop(write_end);
    let mut text = Vec::new();
    let read = std::fs::File::from(read_end).read_to_end(&mut text);
    let mut status = 0;
    // SAFETY: reaps the process forked above.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    match (read, serde_json::from_slice::<Run>(&text)) {
        (Ok(_), Ok(run)) => run,
        (r, parsed) => failed(format!(
            "the forked runner (status {status}) gave no run: {r:?} {parsed:?}"
        )),
    }
}

/// Folds many spawns into one run: the outcome all of them had, or a failure.
fn fold(variant: &Variant, results: Vec<(Outcome, Findings, Vec<String>)>, vars: &Vars) -> Run {
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    let mut all = Findings::default();
    let mut notes = Vec::new();
    for (outcome, findings, n) in results {
        *counts.entry(outcome.to_string()).or_default() += 1;
        if all.failures.len() < 10 {
            all.failures.extend(findings.failures);
        }
        notes.extend(n);
    }
    notes.dedup();
    let outcome = if counts.len() == 1 {
        counts.keys().next().cloned().unwrap_or_default()
    } else {
        all.failures
            .push(format!("the spawns disagree: {counts:?}"));
        "skipped:mixed-outcomes".into()
    };
    let spawns: u32 = counts.values().sum();
    let mut run = Run {
        variant: variant.label(),
        outcome,
        facts: BTreeMap::from([("spawns".to_string(), json!(spawns))]),
        failures: Vec::new(),
        notes,
    };
    absorb(&mut run, all, vars);
    run
}

/// `threads` threads spawn `spawns` children each while one more thread opens and closes
/// close-on-exec descriptors; every child's report is checked.
pub fn multithread(
    case: &Case,
    variant: &Variant,
    spawner: &dyn Spawner,
    plan: &Plan,
    vars: &Vars,
    threads: u32,
    spawns: u32,
) -> Run {
    let stop = AtomicBool::new(false);
    let churned = AtomicU32::new(0);
    let results = std::thread::scope(|s| {
        s.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                // SAFETY: opens and closes a descriptor this thread owns.
                unsafe {
                    let fd = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
                    if fd >= 0 {
                        libc::close(fd);
                        churned.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        });
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (0..spawns)
                        .map(|i| {
                            let tag = format!("t{t}-{i}");
                            spawn_and_check(
                                case,
                                spawner,
                                plan,
                                vars,
                                &tag,
                                std::slice::from_ref(&tag),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let results: Vec<_> = workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect();
        stop.store(true, Ordering::Relaxed);
        results
    });
    let mut run = fold(variant, results, vars);
    let churned = churned.load(Ordering::Relaxed);
    if churned == 0 {
        run.failures
            .push("the descriptor churn thread never ran".into());
    }
    run
}

static RUNNER_PID: AtomicI32 = AtomicI32::new(0);
static FOREIGN_PID: AtomicI32 = AtomicI32::new(0);
static DELIVERED: AtomicU32 = AtomicU32::new(0);

/// Async-signal-safe: compares pids and stores integers.
extern "C" fn flood_handler(_: libc::c_int) {
    // SAFETY: getpid is async-signal-safe.
    let me = unsafe { libc::getpid() };
    if me == RUNNER_PID.load(Ordering::Relaxed) {
        DELIVERED.fetch_add(1, Ordering::Relaxed);
    } else {
        FOREIGN_PID.store(me, Ordering::Relaxed);
    }
}

/// Spawns `spawns` times while another thread keeps sending `signal` to the runner's process
/// group or to the runner alone (blocking it itself, so that each one queues for the spawning
/// thread); the runner's handler must never run in a child.
pub fn signal_flood(
    case: &Case,
    variant: &Variant,
    spawner: &dyn Spawner,
    plan: &Plan,
    vars: &Vars,
    (signal, target): (&str, FloodTarget),
    spawns: u32,
) -> Run {
    let Some(sig) = names::signal(signal) else {
        return fold(variant, Vec::new(), vars);
    };
    // SAFETY: getpid only queries.
    RUNNER_PID.store(unsafe { libc::getpid() }, Ordering::Relaxed);
    let handler = flood_handler as extern "C" fn(libc::c_int) as libc::sighandler_t;
    if let Err(e) = setup::install(sig, handler, 0) {
        let mut run = fold(variant, Vec::new(), vars);
        run.failures.push(e);
        return run;
    }
    let stop = AtomicBool::new(false);
    let (results, flooded) = std::thread::scope(|s| {
        let flood = s.spawn(|| {
            let pid = match target {
                FloodTarget::Group => 0,
                FloodTarget::Runner => {
                    block_here(sig).map_err(|rc| {
                        format!(
                            "the flooding thread cannot block {signal}: {}",
                            crate::errno::name(rc)
                        )
                    })?;
                    RUNNER_PID.load(Ordering::Relaxed)
                }
            };
            while !stop.load(Ordering::Relaxed) {
                // SAFETY: signals this process group (which the case made the runner's own)
                // or this process.
                unsafe { libc::kill(pid, sig) };
                std::thread::sleep(std::time::Duration::from_micros(100));
            }
            Ok::<(), String>(())
        });
        let results: Vec<_> = (0..spawns)
            .map(|i| spawn_and_check(case, spawner, plan, vars, &i.to_string(), &[]))
            .collect();
        stop.store(true, Ordering::Relaxed);
        let flooded = flood
            .join()
            .unwrap_or_else(|_| Err("the flooding thread panicked".into()));
        (results, flooded)
    });
    let mut run = fold(variant, results, vars);
    if let Err(e) = flooded {
        run.failures.push(e);
    }
    let delivered = DELIVERED.load(Ordering::Relaxed);
    let foreign = FOREIGN_PID.load(Ordering::Relaxed);
    run.facts
        .insert("handler ran in a child".into(), json!(foreign != 0));
    if delivered == 0 {
        run.failures
            .push("no signal reached the runner: the flood did not happen".into());
    }
    if foreign != 0 {
        run.failures.push(format!(
            "the runner's {signal} handler ran in process {foreign}"
        ));
    }
    run
}

/// Blocks `sig` in the calling thread only.
fn block_here(sig: libc::c_int) -> Result<(), i32> {
    // SAFETY: the set is initialised before use.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        match libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) {
            0 => Ok(()),
            rc => Err(rc),
        }
    }
}

/// The case's attributes set on a raw attribute object and read back with every getter
/// (libc only, no spawn): each getter must give back exactly what was set.
pub fn attr_read_back(case: &Case, variant: &Variant) -> Run {
    match subject::read_back_attrs(case) {
        Ok(findings) => fold_findings(variant, findings),
        Err(ns) => {
            let mut run = fold_findings(variant, Findings::default());
            run.outcome = ns.outcome.to_string();
            run.notes.extend(ns.note);
            run
        }
    }
}

/// `posix_spawnattr_*` defaults and set/get round trips, on the raw libc (no spawn): the
/// defaults, each setter's value read back, and what `setflags` says to every bit set.
pub fn attr_roundtrip(variant: &Variant) -> Run {
    let mut f = Findings::default();
    let mut ok = |name: &str, holds: bool| {
        f.facts.insert(name.to_string(), json!(holds));
        if !holds {
            f.failures.push(format!("{name} does not hold"));
        }
    };
    // SAFETY: the attribute object is initialised before use and destroyed once; every
    // out-parameter is a local.
    let all_bits = unsafe {
        let mut attr: libc::posix_spawnattr_t = std::mem::zeroed();
        if libc::posix_spawnattr_init(&mut attr) != 0 {
            ok("posix_spawnattr_init returns 0", false);
            return fold_findings(variant, f);
        }
        let mut flags: libc::c_short = -1;
        let mut pgroup: libc::pid_t = -1;
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        ok(
            "default flags are 0",
            libc::posix_spawnattr_getflags(&attr, &mut flags) == 0 && flags == 0,
        );
        ok(
            "default pgroup is 0",
            libc::posix_spawnattr_getpgroup(&attr, &mut pgroup) == 0 && pgroup == 0,
        );
        ok(
            "default sigdefault is empty",
            libc::posix_spawnattr_getsigdefault(&attr, &mut set) == 0
                && (1..32).all(|s| libc::sigismember(&set, s) == 0),
        );
        let want = (libc::POSIX_SPAWN_SETPGROUP | libc::POSIX_SPAWN_SETSIGMASK) as libc::c_short;
        ok(
            "setflags then getflags",
            libc::posix_spawnattr_setflags(&mut attr, want) == 0
                && libc::posix_spawnattr_getflags(&attr, &mut flags) == 0
                && flags == want,
        );
        ok(
            "setpgroup then getpgroup",
            libc::posix_spawnattr_setpgroup(&mut attr, 4321) == 0
                && libc::posix_spawnattr_getpgroup(&attr, &mut pgroup) == 0
                && pgroup == 4321,
        );
        for (name, sig, setter, getter) in [
            (
                "setsigmask then getsigmask",
                libc::SIGUSR2,
                libc::posix_spawnattr_setsigmask as unsafe extern "C" fn(_, _) -> _,
                libc::posix_spawnattr_getsigmask as unsafe extern "C" fn(_, _) -> _,
            ),
            (
                "setsigdefault then getsigdefault",
                libc::SIGUSR1,
                libc::posix_spawnattr_setsigdefault,
                libc::posix_spawnattr_getsigdefault,
            ),
        ] {
            let mut given: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut given);
            libc::sigaddset(&mut given, sig);
            libc::sigemptyset(&mut set);
            ok(
                name,
                setter(&mut attr, &given) == 0
                    && getter(&attr, &mut set) == 0
                    && libc::sigismember(&set, sig) == 1,
            );
        }
        let rc = libc::posix_spawnattr_setflags(&mut attr, -1);
        libc::posix_spawnattr_destroy(&mut attr);
        rc
    };
    let answer = if all_bits == 0 {
        "0".to_string()
    } else {
        crate::errno::name(all_bits)
    };
    f.facts.insert("setflags(every bit)".into(), json!(answer));
    fold_findings(variant, f)
}

fn fold_findings(variant: &Variant, f: Findings) -> Run {
    let outcome = if f.failures.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Skipped("roundtrip-failed".into())
    };
    Run {
        variant: variant.label(),
        outcome: outcome.to_string(),
        facts: f.facts,
        failures: f.failures,
        notes: Vec::new(),
    }
}
