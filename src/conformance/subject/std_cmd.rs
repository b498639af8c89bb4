//! The `std` subject: `std::process::Command`, for the cases it can express (stdio from a
//! descriptor, one working directory, a process group, environment changes, argv[0]).

use std::ffi::OsStr;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};

use super::{NotStarted, Running, Spawner};
use crate::conformance::case::{
    Case, ChdirApi, Env, FloodTarget, Pgroup, PidArg, Scenario, SpawnFn,
};
use crate::conformance::plan::{Plan, PlannedAction};

/// Why `std::process::Command` cannot express `case`, or `Ok`.
pub fn expressible(case: &Case) -> Result<(), String> {
    let has_slash = case.program.contains('/') || case.program.starts_with("${");
    if case.spawn == SpawnFn::PosixSpawn && !has_slash {
        return Err("std searches PATH for a name without a slash".into());
    }
    if matches!(
        case.scenario,
        Some(Scenario::AttrRoundtrip | Scenario::AttrReadBack)
    ) {
        return Err("std has no spawn attribute object".into());
    }
    if case.pid == PidArg::Null {
        return Err("std always returns the pid".into());
    }
    if matches!(case.env, Env::NullPointer) {
        return Err("std cannot pass a null envp".into());
    }
    if !super::env_is_map(&case.env) {
        return Err("std's environment is a map of distinct NAME=VALUE".into());
    }
    if case.argv.as_ref().is_some_and(|a| a.is_empty()) {
        return Err("std always passes argv[0]".into());
    }
    if let Some(Scenario::SignalFlood {
        target: FloodTarget::Group,
        ..
    }) = case.scenario
    {
        return Err("std cannot set the mask a child needs under a flood to its group".into());
    }
    if let Some(attrs) = &case.attrs {
        if attrs.flags.iter().any(|f| f != "SETPGROUP") || attrs.pgroup == Some(Pgroup::Nonexistent)
        {
            return Err("std sets no attribute but the process group".into());
        }
    }
    let actions = case.actions.as_deref().unwrap_or_default();
    for (i, action) in actions.iter().enumerate() {
        use crate::conformance::case::Action;
        match action {
            Action::Dup2 { fd, to } if (0..=2).contains(to) && *fd >= 0 => {}
            Action::Chdir {
                api: ChdirApi::Np, ..
            } if i + 1 == actions.len() => {}
            _ => return Err("std has no such file action".into()),
        }
    }
    Ok(())
}

/// Builds a fresh `Command` per spawn from the plan.
pub struct StdSpawner {
    plan: Plan,
    pgroup: Option<Pgroup>,
    arg0_override: bool,
}

impl StdSpawner {
    pub fn new(case: &Case, plan: &Plan) -> Result<StdSpawner, NotStarted> {
        expressible(case).map_err(NotStarted::not_expressible)?;
        Ok(StdSpawner {
            plan: plan.clone(),
            pgroup: case.attrs.as_ref().and_then(|a| a.pgroup),
            arg0_override: case.argv.is_some(),
        })
    }
}

fn stdio_from(fd: RawFd) -> Result<Stdio, NotStarted> {
    super::duplicate(fd).map(Stdio::from)
}

impl Spawner for StdSpawner {
    fn spawn(
        &self,
        argv: &[Vec<u8>],
        envp: Option<&[Vec<u8>]>,
    ) -> Result<Box<dyn Running>, NotStarted> {
        let mut cmd = Command::new(OsStr::from_bytes(&self.plan.program));
        if self.arg0_override {
            cmd.arg0(OsStr::from_bytes(&argv[0]));
        }
        cmd.args(argv.iter().skip(1).map(|a| OsStr::from_bytes(a)));
        cmd.env_clear();
        cmd.envs(super::env_pairs(envp));
        for action in self.plan.actions.as_deref().unwrap_or_default() {
            match action {
                PlannedAction::Dup2(from, 0) => {
                    cmd.stdin(stdio_from(*from)?);
                }
                PlannedAction::Dup2(from, 1) => {
                    cmd.stdout(stdio_from(*from)?);
                }
                PlannedAction::Dup2(from, 2) => {
                    cmd.stderr(stdio_from(*from)?);
                }
                PlannedAction::Chdir(path, _) => {
                    cmd.current_dir(OsStr::from_bytes(path));
                }
                _ => {
                    return Err(NotStarted::not_expressible(format!("{action:?}")));
                }
            }
        }
        if let Some(pgroup) = self.pgroup {
            cmd.process_group(super::pgid_for(pgroup));
        }
        let child = cmd.spawn().map_err(|e| NotStarted::returned(&e))?;
        Ok(Box::new(StdChild(child)))
    }
}

super::wait::running_child!(StdChild, std::process::Child);
