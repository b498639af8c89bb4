//! The three subjects a case runs against, behind one interface: prepare once (the file
//! actions and attributes, where add-time errors show), then spawn one or more times.

use std::io;

use super::case::Case;
use super::outcome::Outcome;
use super::plan::Plan;

mod libc_spawn;
mod std_cmd;
mod wait;

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

    /// `returned:ERRNO` from an `io::Error`.
    pub fn returned(e: &io::Error) -> NotStarted {
        match e.raw_os_error() {
            Some(code) => NotStarted::new(Outcome::Returned(crate::errno::name(code)), None),
            None => NotStarted::new(Outcome::Skipped("no-errno".into()), e.to_string()),
        }
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
}

impl Variant {
    pub fn label(&self) -> String {
        match self {
            Variant::Libc => "libc".into(),
            Variant::Std => "std".into(),
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
    }
}
