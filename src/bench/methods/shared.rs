//! `shared:*`: this crate's own spawn (`spawnmatrix::spawn::Command`), as `shared:auto` and
//! forced to each strategy this process can use, built afresh for every spawn like `std:*`;
//! and `shared:typed_setup` against `shared:pre_exec_setup`: the same child setup (no core
//! dumps, umask 077) through `Command::rlimit`/`umask`, which keep the `CLONE_VM` path, and
//! through a `pre_exec` closure, which forces `fork`.

use super::super::reap::check_status;
use super::super::workload::{Stdio, Workload};
use super::super::BenchError;
use super::fork::spawn_error;
use super::{Candidate, Method, Skipped};
use crate::spawn::os::unix::process::{CommandExt, ExitStatusExt};
use crate::spawn::{Command, Stdio as SharedStdio, Strategy};

pub struct Shared {
    strategy: Strategy,
    setup: Setup,
    name: &'static str,
    /// The strategy `Auto` picked, seen on the last spawn.
    chosen: Option<Strategy>,
}

/// The child setup a spawn asks for.
#[derive(Clone, Copy)]
enum Setup {
    None,
    /// `rlimit(RLIMIT_CORE, 0, 0)` and `umask(0o077)`.
    Typed,
    /// The same in a `pre_exec` closure.
    PreExec,
}

/// One candidate per strategy this process can use, `shared:auto` first. A forced strategy
/// that cannot express the workload here (an `Unsupported` error on a trial spawn) is
/// skipped with that error as the reason.
pub fn candidates(w: &Workload) -> Vec<Candidate> {
    let setups = [
        (Setup::Typed, "shared:typed_setup"),
        (Setup::PreExec, "shared:pre_exec_setup"),
    ];
    Strategy::available()
        .into_iter()
        .map(|strategy| (strategy, Setup::None, name(strategy)))
        .chain(setups.map(|(setup, name)| (Strategy::Auto, setup, name)))
        .map(|(strategy, setup, name)| {
            let mut method = Shared {
                strategy,
                setup,
                name,
                chosen: None,
            };
            match method.spawn_wait(w) {
                Err(BenchError::Spawn { source, .. })
                    if source.kind() == std::io::ErrorKind::Unsupported =>
                {
                    Err(Skipped {
                        name: method.name,
                        reason: source.to_string(),
                    })
                }
                _ => Ok(Box::new(method) as Box<dyn Method>),
            }
        })
        .collect()
}

/// `shared:<strategy name>`, as a static string.
fn name(s: Strategy) -> &'static str {
    match s {
        Strategy::Auto => "shared:auto",
        Strategy::PosixSpawn => "shared:posix_spawn",
        Strategy::Clone3 => "shared:clone3",
        Strategy::CloneVfork => "shared:clone_vfork",
        Strategy::Vfork => "shared:vfork",
        Strategy::Fork => "shared:fork",
    }
}

impl Shared {
    fn command(&self, w: &Workload) -> std::io::Result<Command> {
        let mut cmd = Command::new(&w.program);
        cmd.args(&w.args).strategy(self.strategy);
        if let Some(path) = &w.path_env {
            cmd.env("PATH", path);
        }
        if let Some(dir) = &w.dir {
            cmd.current_dir_fd(dir.fd.try_clone()?);
        }
        match w.stdio {
            Stdio::Inherit => {}
            Stdio::NullStdout(_) => {
                cmd.stdout(SharedStdio::null());
            }
            Stdio::Pipes => {
                cmd.stdin(SharedStdio::piped()).stdout(SharedStdio::piped());
            }
        }
        match self.setup {
            Setup::None => {}
            Setup::Typed => {
                cmd.rlimit(libc::RLIMIT_CORE, 0, 0).umask(0o077);
            }
            Setup::PreExec => {
                // SAFETY: setrlimit and umask are async-signal-safe; the closure allocates
                // nothing (its error is a raw os error).
                unsafe {
                    cmd.pre_exec(|| {
                        let none = libc::rlimit {
                            rlim_cur: 0,
                            rlim_max: 0,
                        };
                        if libc::setrlimit(libc::RLIMIT_CORE, &none) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                        libc::umask(0o077);
                        Ok(())
                    })
                };
            }
        }
        Ok(cmd)
    }
}

impl Method for Shared {
    fn name(&self) -> &'static str {
        self.name
    }

    fn note(&self) -> Option<String> {
        match (self.strategy, self.chosen) {
            (Strategy::Auto, Some(chosen)) => Some(format!("chose `{chosen}`")),
            _ => None,
        }
    }

    fn spawn_wait(&mut self, w: &Workload) -> Result<(), BenchError> {
        let mut child = self
            .command(w)
            .and_then(|mut cmd| cmd.spawn())
            .map_err(|e| spawn_error(self, e))?;
        self.chosen = Some(child.strategy());
        let status = child.wait().map_err(|source| BenchError::Wait {
            method: self.name.to_string(),
            source,
        })?;
        check_status(self.name, status.into_raw())
    }
}
