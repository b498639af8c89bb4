//! The `shared` subject: [`crate::spawn::Command`] with one forced strategy per run, for the
//! cases its API can express (dup2 of a descriptor the parent holds as `fd`, one chdir
//! or fchdir as the working directory, process group, session, signal mask and defaults).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use super::{NotStarted, Running, Spawner};
use crate::conformance::case::{Action, Case, Env, Pgroup, PidArg, Scenario, SpawnFn};
use crate::conformance::names;
use crate::conformance::outcome::Outcome;
use crate::conformance::plan::{Plan, PlannedAction};
use crate::spawn::os::unix::process::{CommandExt, ExitStatusExt};
use crate::spawn::{Command, Strategy};

/// Why the shared API cannot express `case`, or `Ok`.
pub fn expressible(case: &Case) -> Result<(), String> {
    let program_ok = case.spawn == SpawnFn::PosixSpawnp
        || case.program.is_empty()
        || case.program.contains('/')
        || case.program.starts_with("${");
    if !program_ok {
        return Err("a bare name is searched in PATH by the shared spawn".into());
    }
    if matches!(
        case.scenario,
        Some(Scenario::AttrRoundtrip | Scenario::AttrReadBack)
    ) {
        return Err("the shared spawn has no spawn attribute object".into());
    }
    if case.pid == PidArg::Null {
        return Err("the shared spawn always returns the pid".into());
    }
    if case.argv.is_some() {
        return Err("the shared spawn always passes the program as argv[0]".into());
    }
    if matches!(case.env, Env::NullPointer) {
        return Err("the shared spawn has no null envp".into());
    }
    if !super::env_is_map(&case.env) {
        return Err("the shared spawn's environment is a map of distinct NAME=VALUE".into());
    }
    if let Some(attrs) = &case.attrs {
        let known = ["SETPGROUP", "SETSID", "SETSIGMASK", "SETSIGDEF", "USEVFORK"];
        if let Some(flag) = attrs.flags.iter().find(|f| !known.contains(&f.as_str())) {
            return Err(format!(
                "the shared spawn has no equivalent of POSIX_SPAWN_{flag}"
            ));
        }
    }
    let uncatchable = ["SIGKILL", "SIGSTOP"];
    if let Some(attrs) = &case.attrs {
        if attrs
            .sigdefault
            .iter()
            .any(|s| uncatchable.contains(&s.as_str()))
        {
            return Err("the shared spawn rejects SIGKILL and SIGSTOP in reset_signals".into());
        }
    }
    let actions = case.actions.as_deref().unwrap_or_default();
    let dirs = actions
        .iter()
        .filter(|a| matches!(a, Action::Chdir { .. } | Action::Fchdir { .. }))
        .count();
    if dirs > 1 {
        return Err("the shared spawn sets one working directory".into());
    }
    // The API takes fds as `OwnedFd`: a source must be open in the parent.
    let held = |fd: &i32| (0..=2).contains(fd) || case.setup.fds.iter().any(|s| s.fd == *fd);
    for action in actions {
        match action {
            Action::Dup2 { fd, to } if *to >= 0 && held(fd) => {}
            Action::Fchdir { fd, .. } if held(fd) => {}
            Action::Chdir { .. } => {}
            other => return Err(format!("the shared spawn cannot express {other:?}")),
        }
    }
    Ok(())
}

/// Builds a `Command` with one strategy per spawn.
pub struct SharedSpawner {
    plan: Plan,
    strategy: Strategy,
    pgroup: Option<Pgroup>,
    setsid: bool,
    mask: Option<Vec<libc::c_int>>,
    reset: Vec<libc::c_int>,
}

fn signals(list: &[String]) -> Vec<libc::c_int> {
    list.iter().filter_map(|s| names::signal(s)).collect()
}

impl SharedSpawner {
    pub fn new(case: &Case, plan: &Plan, strategy: &str) -> Result<SharedSpawner, NotStarted> {
        expressible(case).map_err(NotStarted::not_expressible)?;
        let strategy: Strategy = strategy.parse().map_err(|_| {
            NotStarted::new(
                Outcome::Skipped("unknown-strategy".into()),
                strategy.to_string(),
            )
        })?;
        let attrs = case.attrs.clone().unwrap_or_default();
        let has = |flag: &str| attrs.flags.iter().any(|f| f == flag);
        Ok(SharedSpawner {
            plan: plan.clone(),
            strategy,
            pgroup: if has("SETPGROUP") { attrs.pgroup } else { None },
            setsid: has("SETSID"),
            mask: has("SETSIGMASK").then(|| signals(&attrs.sigmask)),
            reset: if has("SETSIGDEF") {
                signals(&attrs.sigdefault)
            } else {
                Vec::new()
            },
        })
    }
}

impl Spawner for SharedSpawner {
    fn spawn(
        &self,
        argv: &[Vec<u8>],
        envp: Option<&[Vec<u8>]>,
    ) -> Result<Box<dyn Running>, NotStarted> {
        let mut cmd = Command::new(OsStr::from_bytes(&self.plan.program));
        cmd.args(argv.iter().skip(1).map(|a| OsStr::from_bytes(a)));
        cmd.env_clear();
        cmd.envs(super::env_pairs(envp));
        for action in self.plan.actions.as_deref().unwrap_or_default() {
            match action {
                PlannedAction::Dup2(from, to) => {
                    cmd.fd(*to, super::duplicate(*from)?);
                }
                PlannedAction::Chdir(path, _) => {
                    cmd.current_dir(OsStr::from_bytes(path));
                }
                PlannedAction::Fchdir(fd, _) => {
                    cmd.current_dir_fd(super::duplicate(*fd)?);
                }
                other => {
                    return Err(NotStarted::not_expressible(format!("{other:?}")));
                }
            }
        }
        if let Some(pgroup) = self.pgroup {
            cmd.process_group(super::pgid_for(pgroup));
        }
        cmd.setsid(self.setsid);
        if let Some(mask) = &self.mask {
            cmd.signal_mask(mask);
        }
        cmd.reset_signals(&self.reset);
        cmd.strategy(self.strategy);
        match cmd.spawn() {
            Ok(child) => Ok(Box::new(SharedChild(child))),
            Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {
                Err(NotStarted::new(Outcome::Unsupported, e.to_string()))
            }
            Err(e) => Err(NotStarted::returned(&e)),
        }
    }
}

super::wait::running_child!(SharedChild, crate::spawn::Child);

/// The strategies this process can use, by report name.
pub fn strategies() -> Vec<String> {
    Strategy::available()
        .into_iter()
        .map(|s| s.name().to_string())
        .collect()
}
