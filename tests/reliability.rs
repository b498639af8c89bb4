//! Reliability under load and faults: many threads spawning at once, a signal storm, fd
//! exhaustion, address-space pressure, and children that die or close their pipes early.
//!
//! Cases that change process-wide state (rlimits, the process group, signal handlers) run in a
//! re-executed copy of this test binary (see `subprocess`), so parallel tests are undisturbed.

#[path = "reliability/canary.rs"]
mod canary;
#[path = "reliability/faults.rs"]
mod faults;
#[cfg(target_os = "linux")]
#[path = "reliability/lifecycle.rs"]
mod lifecycle;
#[path = "reliability/load.rs"]
mod load;
#[cfg(target_os = "linux")]
#[path = "reliability/memory.rs"]
mod memory;
#[path = "reliability/rlimit.rs"]
mod rlimit;
#[path = "reliability/storm.rs"]
mod storm;
#[path = "reliability/strategies.rs"]
mod strategies;
#[path = "reliability/subprocess.rs"]
mod subprocess;
