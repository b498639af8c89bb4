//! Baselines: the build targets people name (`manylinux2014`, `debian-12`, `android-api-34`,
//! `macos-11`), each mapped to one release of a platform family, so the summary can answer
//! "can I use this on my baseline" and not only "since which release".
//!
//! - [`file`]: `targets/baselines.yaml`, parsed and checked (file and line on every error).
//! - [`view`]: a baseline's answer for each feature row, read off the same version ranges the
//!   compile-time header uses (`caps_header::spans`), so an interval boundary that contains
//!   the baseline's release is `unknown`, never a guess.

pub mod file;
pub mod view;

pub use file::{Baseline, BaselineEvidence, Baselines};
pub use view::{Availability, BaselineAnswer, BaselineRow, BaselineView};
