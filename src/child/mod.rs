//! The C child helper (`conformance/child/spawnmatrix-child.c`): the program every spawn
//! case starts, which reports the state it was started with as JSON.
//!
//! - [`helper_path`] / [`true_path`]: executable copies of the helper and of a program that
//!   only exits 0, both embedded at build time (see `build/child.rs`).
//! - [`ChildState`]: the helper's JSON report, parsed.

mod install;
mod state;

pub use install::{helper_path, true_path};
pub use state::{
    Access, ChildState, ChildStateError, FdInfo, FdType, KernelSignals, KernelSource, Sched,
};
