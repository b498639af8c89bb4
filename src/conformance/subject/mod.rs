//! The three subjects a case runs against, behind one interface: prepare once (the file
//! actions and attributes, where add-time errors show), then spawn one or more times.

use std::ffi::OsStr;
use std::io;
use std::os::fd::{BorrowedFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

use super::case::{Arg, Case, Env, Pgroup};
use super::outcome::Outcome;
use super::plan::Plan;

mod libc_readback;
mod libc_spawn;
mod shared;
mod std_cmd;
mod wait;

pub use libc_readback::read_back_attrs;
pub use shared::{expressible as shared_expressible, strategies as shared_strategies};
pub use std_cmd::expressible as std_expressible;
pub use wait::{wait_with_timeout, Running};

/// Why a spawn did not start a child: the outcome, and a note that says more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotStarted {
    pub outcome: Outcome,
    pub note: Option<String>,
}

impl NotStarted {
    pub fn new(outcome: Outcome, note: impl Into<Option<String>>) -> NotStarted {
        NotStarted {
            outcome,
            note: note.into(),
        }
    }

    /// The subject's API cannot say what the case asks.
    pub fn not_expressible(why: String) -> NotStarted {
        NotStarted::new(Outcome::Skipped("not-expressible".into()), why)
    }

    /// `returned:ERRNO` from an `io::Error`.
    pub fn returned(e: &io::Error) -> NotStarted {
        match e.raw_os_error() {
            Some(code) => NotStarted::new(Outcome::Returned(crate::errno::name(code)), None),
            None => NotStarted::new(Outcome::Skipped("no-errno".into()), e.to_string()),
        }
    }
}

/// `NAME=VALUE` entries split at the first `=`.
pub fn env_pairs(envp: Option<&[Vec<u8>]>) -> impl Iterator<Item = (&OsStr, &OsStr)> {
    envp.unwrap_or_default().iter().map(|entry| {
        let split = entry.iter().position(|&b| b == b'=').unwrap_or(entry.len());
        let (k, v) = entry.split_at(split);
        (
            OsStr::from_bytes(k),
            OsStr::from_bytes(v.get(1..).unwrap_or_default()),
        )
    })
}

/// Whether an exact environment is a map (distinct names, text `NAME=VALUE`), which is all
/// a `Command`-style API can pass.
pub fn env_is_map(env: &Env) -> bool {
    let Env::Exact { entries } = env else {
        return true;
    };
    let mut names = std::collections::BTreeSet::new();
    entries.iter().all(|e| match e {
        Arg::Text(t) => t
            .find('=')
            .is_some_and(|i| i > 0 && names.insert(t[..i].to_string())),
        _ => false,
    })
}

/// A close-on-exec duplicate of the runner's open `fd` (a setup fd or stdio).
pub fn duplicate(fd: RawFd) -> Result<OwnedFd, NotStarted> {
    // SAFETY: callers pass only fds the runner holds open; this only duplicates.
    unsafe { BorrowedFd::borrow_raw(fd) }
        .try_clone_to_owned()
        .map_err(|e| NotStarted::returned(&e))
}

/// The process group id a case's `pgroup` stands for in the runner.
pub fn pgid_for(pgroup: Pgroup) -> libc::pid_t {
    match pgroup {
        Pgroup::New => 0,
        // SAFETY: getpgrp only queries.
        Pgroup::Parent => unsafe { libc::getpgrp() },
        // Larger than any pid a kernel hands out, so no such group exists.
        Pgroup::Nonexistent => libc::pid_t::MAX - 1,
    }
}

/// A prepared subject that can start the case's program.
pub trait Spawner: Sync {
    fn spawn(
        &self,
        argv: &[Vec<u8>],
        envp: Option<&[Vec<u8>]>,
    ) -> Result<Box<dyn Running>, NotStarted>;
}

/// Which subject, and for `shared`, which strategy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Variant {
    Libc,
    Std,
    /// The shared implementation with this strategy forced.
    Shared(String),
}

impl Variant {
    pub fn label(&self) -> String {
        match self {
            Variant::Libc => "libc".into(),
            Variant::Std => "std".into(),
            Variant::Shared(s) => format!("shared/{s}"),
        }
    }
}

/// Prepares `variant` for `case`.
pub fn prepare(
    variant: &Variant,
    case: &Case,
    plan: &Plan,
) -> Result<Box<dyn Spawner>, NotStarted> {
    match variant {
        Variant::Libc => Ok(Box::new(libc_spawn::LibcSpawner::new(case, plan)?)),
        Variant::Std => Ok(Box::new(std_cmd::StdSpawner::new(case, plan)?)),
        Variant::Shared(s) => Ok(Box::new(shared::SharedSpawner::new(case, plan, s)?)),
    }
}
