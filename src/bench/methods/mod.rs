//! The ways of spawning that the benchmark compares. Each spawns the workload once and reaps
//! the child; names read `subject:variant` (`raw:fork`, `libc:posix_spawn`, `std:plain`,
//! `shared:auto`, `shared:clone3`).

use super::workload::Workload;
use super::BenchError;

mod fork;
mod posix_spawn;
mod shared;
// Unused where neither clone nor the vfork shim exists (cross builds for `cargo check`).
#[cfg_attr(
    not(any(target_os = "linux", spawnmatrix_vfork_shim)),
    allow(dead_code)
)]
mod shared_vm;
mod std_command;

#[cfg(spawnmatrix_vfork_shim)]
#[path = "vfork.rs"]
mod vfork;
#[cfg(not(spawnmatrix_vfork_shim))]
#[path = "no_vfork.rs"]
mod vfork;

#[cfg(target_os = "linux")]
#[path = "clone_vfork.rs"]
mod platform;
#[cfg(not(target_os = "linux"))]
#[path = "no_clone.rs"]
mod platform;

/// One way of spawning the workload.
pub trait Method {
    fn name(&self) -> &'static str;
    /// Spawns the workload once and reaps the child; the child must exit 0.
    fn spawn_wait(&mut self, workload: &Workload) -> Result<(), BenchError>;
    /// Something a reader should know about the figures (such as what `auto` picked).
    fn note(&self) -> Option<String> {
        None
    }
}

/// A method that cannot run this workload here, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub name: &'static str,
    pub reason: String,
}

/// What a method constructor gives: the method, or why it cannot run.
pub type Candidate = Result<Box<dyn Method>, Skipped>;

/// Which method every ratio is divided by: the first of these that can run here (the
/// cheapest possible spawn by design: a child sharing the parent's memory that only execs).
pub const FLOOR_PREFERENCE: &[&str] =
    &[platform::FLOOR, "raw:vfork", "libc:posix_spawn", "raw:fork"];

/// Every method this platform has for `workload`, in display order.
pub fn all(workload: &Workload) -> Vec<Candidate> {
    let mut methods = platform::methods(workload);
    methods.push(vfork::candidate(workload));
    methods.push(fork::Fork::candidate(workload));
    methods.push(posix_spawn::PosixSpawn::candidate(workload));
    methods.extend(std_command::StdCommand::candidates(workload));
    methods.extend(shared::candidates(workload));
    methods
}
