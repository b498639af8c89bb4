//! `std:*`: `std::process::Command` as people write it, built afresh for every spawn.
//! - `std:plain`: the program by path (std uses posix_spawn where it can).
//! - `std:path_override`: a bare name with PATH set for the child, the case where std falls
//!   back to fork + exec because posix_spawnp would search the parent's PATH.
//! - `std:pre_exec`: a (no-op) pre_exec hook, which also forces std's fork path.

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio as StdStdio};

use super::super::reap::check_status;
use super::super::workload::{Stdio, Workload};
use super::super::BenchError;
use super::fork::spawn_error;
use super::{Candidate, Method};

#[derive(Clone, Copy)]
enum Variant {
    Plain,
    PathOverride,
    PreExec,
}

pub struct StdCommand(Variant);

impl StdCommand {
    pub fn candidates(_: &Workload) -> Vec<Candidate> {
        [Variant::Plain, Variant::PathOverride, Variant::PreExec]
            .into_iter()
            .map(|v| Ok(Box::new(StdCommand(v)) as Box<dyn Method>))
            .collect()
    }

    fn command(&self, w: &Workload) -> Command {
        let mut cmd = match self.0 {
            Variant::PathOverride => {
                let mut cmd = Command::new(w.bare_name());
                cmd.env("PATH", w.search_path());
                cmd
            }
            Variant::Plain | Variant::PreExec => {
                let mut cmd = Command::new(&w.program);
                if let Some(path) = &w.path_env {
                    cmd.env("PATH", path);
                }
                cmd
            }
        };
        cmd.args(&w.args);
        if let Some(dir) = &w.dir {
            cmd.current_dir(&dir.path);
        }
        match w.stdio {
            Stdio::Inherit => {}
            Stdio::NullStdout(_) => {
                cmd.stdout(StdStdio::null());
            }
            Stdio::Pipes => {
                cmd.stdin(StdStdio::piped()).stdout(StdStdio::piped());
            }
        }
        if let Variant::PreExec = self.0 {
            // SAFETY: the hook does nothing, which is async-signal-safe.
            unsafe { cmd.pre_exec(|| Ok(())) };
        }
        cmd
    }
}

impl Method for StdCommand {
    fn name(&self) -> &'static str {
        match self.0 {
            Variant::Plain => "std:plain",
            Variant::PathOverride => "std:path_override",
            Variant::PreExec => "std:pre_exec",
        }
    }

    fn spawn_wait(&mut self, w: &Workload) -> Result<(), BenchError> {
        let mut child = self.command(w).spawn().map_err(|e| spawn_error(self, e))?;
        let status = child.wait().map_err(|source| BenchError::Wait {
            method: self.name().to_string(),
            source,
        })?;
        check_status(self.name(), status.into_raw())
    }
}
