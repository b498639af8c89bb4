//! Pinning the measuring thread (and so every child it spawns) to one CPU for the run.
//!
//! On a machine with few CPUs the scheduler may move a child to another CPU at `execve`
//! (exec balancing) or not, and the two outcomes differ by more than the strategies do: on
//! the 2-CPU build machine unpinned medians jumped between about 80 and 140 µs from one run
//! to the next, while pinned ones repeated within a few percent. Pinning costs every method
//! alike, so the ratios stay fair; `--no-pin` measures without it.

#[cfg(target_os = "linux")]
#[path = "linux.rs"]
mod sys;
#[cfg(not(target_os = "linux"))]
#[path = "other.rs"]
mod sys;

pub use sys::Pin;
