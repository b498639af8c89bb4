//! Running one case for one subject in a fresh process (the "runner"), so descriptors, signal
//! dispositions, limits and identities a case sets up cannot leak into other cases that run
//! in parallel. The runner is the calling executable itself, started with [`RUNNER_ARG`];
//! every `main` that runs the suite calls [`main_if_runner`] first.

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use super::case::{Case, Scenario};
use super::checks;
use super::outcome::Outcome;
use super::plan::Plan;
use super::residue::Baseline;
use super::setup;
use super::subject::{self, Spawner, Variant};
use super::template::Vars;
use super::trial::{absorb, spawn_and_check, Run};
use super::{load, scenario};

/// The first argument that turns an executable into a case runner.
pub const RUNNER_ARG: &str = "__spawnmatrix-conformance-runner";

/// If this process was started as a runner, runs it and returns its exit code.
pub fn main_if_runner() -> Option<ExitCode> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) != Some(RUNNER_ARG) {
        return None;
    }
    Some(match runner_main(&args[2..]) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conformance runner: {e}");
            ExitCode::from(3)
        }
    })
}

fn parse_variant(label: &str) -> Result<Variant, String> {
    match label {
        "libc" => Ok(Variant::Libc),
        "std" => Ok(Variant::Std),
        other => match other.strip_prefix("shared/") {
            Some(strategy) => Ok(Variant::Shared(strategy.to_string())),
            None => Err(format!("unknown variant {other}")),
        },
    }
}

fn runner_main(args: &[String]) -> Result<(), String> {
    let [case_file, variants, result] = args else {
        return Err("usage: RUNNER CASE-FILE VARIANT[,VARIANT...] RESULT-FILE".into());
    };
    close_inherited_fds();
    // A runner started by glibc's own posix_spawn inherits glibc's 32 and 33 ignored (its
    // child code sets them so before 2.38): every case starts from the ordinary state instead,
    // so a spawn that ignores them shows.
    super::sys::reset_reserved_signals()?;
    let case = load::load_file(Path::new(case_file)).map_err(|e| e.to_string())?;
    let helper = crate::child::helper_path().map_err(|e| format!("the child helper: {e}"))?;
    setup::apply_process(&case.setup)?;
    let runs: Vec<Run> = variants
        .split(',')
        .map(|label| parse_variant(label).map(|v| run_variant(&case, &v, &helper)))
        .collect::<Result<_, _>>()?;
    let json = serde_json::to_vec(&runs).map_err(|e| e.to_string())?;
    crate::atomic::write(Path::new(result), &json).map_err(|e| format!("writing {result}: {e}"))
}

/// Closes every descriptor above stderr the runner inherited (a build tool's jobserver pipes,
/// for one), so a case starts from exactly 0, 1 and 2.
fn close_inherited_fds() {
    for fd in super::residue::open_fds().into_iter().filter(|&fd| fd > 2) {
        // SAFETY: nothing in this fresh process owns these descriptors yet.
        unsafe { libc::close(fd) };
    }
}

/// Starts `runner` for `case_file` and waits (at most `limit`) for its runs.
pub fn run_isolated(
    runner: &Path,
    case_file: &Path,
    variants: &[Variant],
    limit: Duration,
) -> Result<Vec<Run>, String> {
    let dir = tempfile::Builder::new()
        .prefix("spawnmatrix-trial-")
        .tempdir()
        .map_err(|e| format!("temp dir: {e}"))?;
    let result = dir.path().join("result.json");
    let log_path = dir.path().join("runner.log");
    let log = std::fs::File::create(&log_path).map_err(|e| e.to_string())?;
    let labels: Vec<String> = variants.iter().map(Variant::label).collect();
    let mut child = Command::new(runner)
        .arg(RUNNER_ARG)
        .arg(case_file)
        .arg(labels.join(","))
        .arg(&result)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log)
        .spawn()
        .map_err(|e| format!("starting the runner {}: {e}", runner.display()))?;
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break status,
            None if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("the runner did not finish within {limit:?}"));
            }
            None => std::thread::sleep(Duration::from_micros(500)),
        }
    };
    let mut log_text = String::new();
    let _ = std::fs::File::open(&log_path).and_then(|mut f| f.read_to_string(&mut log_text));
    let text = std::fs::read_to_string(&result).map_err(|e| {
        format!("the runner ({status}) wrote no result: {e}; its output: {log_text}")
    })?;
    serde_json::from_str(&text).map_err(|e| format!("the runner's result: {e}"))
}

/// Runs one variant: prepares the case's world (as the runner's own user), then spawns —
/// in a forked process with other identities when the case asks for that, so the runner
/// keeps the rights to clean up.
fn run_variant(case: &Case, variant: &Variant, helper: &Path) -> Run {
    let setup = &case.setup;
    if let Some(why) = load::unavailable_here(case) {
        let mut run = Run::new(variant, Outcome::Unsupported);
        run.notes.push(why);
        return run;
    }
    // SAFETY: geteuid only queries.
    if (setup.needs_root || setup.run_as.is_some()) && unsafe { libc::geteuid() } != 0 {
        return Run::new(variant, Outcome::Skipped("needs-root".into()));
    }
    let mut world = match World::prepare(case, helper) {
        Ok(w) => w,
        Err(e) => {
            let mut run = Run::new(variant, Outcome::Skipped("setup-failed".into()));
            run.failures.push(e);
            return run;
        }
    };
    match setup.run_as {
        None => world.spawn_phase(case, variant),
        Some(run_as) => scenario::in_forked_process(variant, || {
            setup::become_user(run_as).map(|()| world.spawn_phase(case, variant))
        }),
    }
}

/// A case's private directory, files and descriptors; removed on drop.
struct World {
    tmp: PathBuf,
    vars: Vars,
    placed: setup::Placed,
    _dir: tempfile::TempDir,
}

impl World {
    fn prepare(case: &Case, helper: &Path) -> Result<World, String> {
        let dir = tempfile::Builder::new()
            .prefix("spawnmatrix-case-")
            .tempdir()
            .map_err(|e| format!("temp dir: {e}"))?;
        let tmp = std::fs::canonicalize(dir.path()).map_err(|e| format!("canonicalize: {e}"))?;
        if case.setup.run_as.is_some() {
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o777))
                .map_err(|e| format!("chmod {}: {e}", tmp.display()))?;
        }
        let vars = Vars::new(&tmp, helper);
        setup::make_files(&case.setup, &vars, helper)?;
        let placed = setup::place_fds(&case.setup, &vars)?;
        setup::apply_signals(&case.setup.signals)?;
        setup::apply_parent_env(&case.setup, &vars);
        if let Some(code) = case.setup.atfork_child_exit {
            setup::atfork::register(code)?;
        }
        Ok(World {
            tmp,
            vars,
            placed,
            _dir: dir,
        })
    }

    /// Spawns (per the scenario), then checks the residue and the parent-side facts.
    fn spawn_phase(&mut self, case: &Case, variant: &Variant) -> Run {
        let vars = &self.vars;
        let plan = match Plan::new(case, vars) {
            Ok(p) => p,
            Err(e) => {
                let mut run = Run::new(variant, Outcome::Skipped("setup-failed".into()));
                run.failures.push(e);
                return run;
            }
        };
        let baseline = Baseline::take();
        setup::atfork::reset();
        let mut run = match subject::prepare(variant, case, &plan) {
            Err(ns) => {
                let mut run = Run::new(variant, ns.outcome);
                run.notes.extend(ns.note);
                run
            }
            Ok(spawner) => match &case.scenario {
                None => repeated(case, variant, spawner.as_ref(), &plan, vars),
                Some(Scenario::Multithread { threads, spawns }) => scenario::multithread(
                    case,
                    variant,
                    spawner.as_ref(),
                    &plan,
                    vars,
                    *threads,
                    *spawns,
                ),
                Some(Scenario::AttrRoundtrip) => scenario::attr_roundtrip(variant),
                Some(Scenario::AttrReadBack) => scenario::attr_read_back(case, variant),
                Some(Scenario::SignalFlood {
                    signal,
                    spawns,
                    target,
                }) => scenario::signal_flood(
                    case,
                    variant,
                    spawner.as_ref(),
                    &plan,
                    vars,
                    (signal, *target),
                    *spawns,
                ),
            },
        };
        run.failures.extend(baseline.problems());
        if case.setup.atfork_child_exit.is_some() {
            // The child handler shows in the outcome; the parent-side ones only here.
            let (prepare, parent) = setup::atfork::counts();
            run.facts
                .insert("atfork.prepare-calls".into(), prepare.into());
            run.facts
                .insert("atfork.parent-calls".into(), parent.into());
        }
        // Files, offsets and pipes say something only when the child ran.
        let child_ran = matches!(
            run.outcome.parse::<Outcome>(),
            Ok(Outcome::Ok | Outcome::ChildExit(_) | Outcome::ChildSignal(_))
        );
        if child_ran {
            let placed = &mut self.placed;
            let parent = checks::parent(&case.expect.child, vars, |reader| {
                for spec in &case.setup.fds {
                    if spec.pipe.as_ref().is_some_and(|p| p.peer == reader) {
                        placed.close(spec.fd);
                    }
                }
            });
            absorb(&mut run, parent, vars);
        }
        run
    }
}

impl Drop for World {
    fn drop(&mut self) {
        // Directories without write or search permission would stop the removal.
        make_removable(&self.tmp);
    }
}

fn make_removable(dir: &Path) {
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                make_removable(&entry.path());
            }
        }
    }
}

/// The plain case: `repeat` spawns with the same prepared objects, which must agree.
fn repeated(
    case: &Case,
    variant: &Variant,
    spawner: &dyn Spawner,
    plan: &Plan,
    vars: &Vars,
) -> Run {
    let mut first: Option<Run> = None;
    for i in 0..case.repeat {
        let (outcome, findings, notes) =
            spawn_and_check(case, spawner, plan, vars, &i.to_string(), &[]);
        let mut run = Run::new(variant, outcome);
        run.notes = notes;
        absorb(&mut run, findings, vars);
        match &mut first {
            None => first = Some(run),
            Some(f) => {
                if run.outcome != f.outcome || run.facts != f.facts {
                    f.failures.push(format!(
                        "spawn {} with the same objects gave {} {:?}, the first gave {} {:?}",
                        i + 1,
                        run.outcome,
                        run.facts,
                        f.outcome,
                        f.facts
                    ));
                }
                f.failures.extend(run.failures);
            }
        }
    }
    first.unwrap_or_else(|| Run::new(variant, Outcome::Skipped("no-spawn".into())))
}
