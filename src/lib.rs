//! spawnmatrix: a portability matrix and conformance suite for the POSIX spawn family, and one
//! spawn implementation that behaves the same on every platform.
//!
//! - [`spawn`]: the shared spawn implementation (`Command`, `Child`, strategies): the
//!   `spawnmatrix-spawn` package of this workspace, re-exported.
//! - [`caps`]: which spawn functions and flags this process can use, found at run time (from
//!   `spawnmatrix-spawn`; [`report::Capability`] is its serialisable form).
//! - [`platform`]: what this platform is (os, kernel, arch, libc and its version).
//! - [`child`]: the C child helper that reports its own state as JSON.
//! - [`conformance`]: cases as data, subjects, outcomes and per-target expectations.
//! - [`report`]: the probe report, the unit the matrix merges.
//! - [`matrix`]: merging reports into one table and rendering it (JSON, Markdown, HTML).
//! - [`published`]: the summary as a versioned release (schema, data version, changes) and
//!   its answers for baselines (`manylinux2014`, `debian-12`).
//! - [`linkcheck`]: link-time evidence from C probes linked against chosen sysroots.
//! - [`bench`](mod@bench): what a spawn costs, per strategy and per parent size.
//! - [`worktree`]: where cases and targets are (the working tree, not the build checkout).
//! - [`sys`]: FFI the `libc` crate lacks per target, and run-time lookup of newer spawn functions
//!   (from `spawnmatrix-spawn`).

pub mod atomic;
pub mod bench;
pub mod caps_header;
pub mod child;
pub mod conformance;
pub mod fuzz;
pub mod linkcheck;
pub mod matrix;
pub mod platform;
pub mod published;
pub mod report;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub mod sandbox;
pub mod version;
pub mod worktree;
pub mod yaml;

// The library keeps its old paths here, so `spawnmatrix::spawn::Command`, `crate::sys::…`,
// `crate::caps::…` and `crate::errno::…` read as before the split.
pub use spawnmatrix_spawn as spawn;
pub use spawnmatrix_spawn::sys::errno;
pub use spawnmatrix_spawn::{caps, sys};
