//! The front: what a caller holds. [`Command`] fills in a request and spawns it, [`Child`]
//! is the process it made, [`Stdio`], [`ExitStatus`] and [`Output`] are as in std. Nothing
//! here decides how a child is created: that is the plan's and the strategies' below.

pub(crate) mod child;
pub(crate) mod command;
pub(crate) mod exec;
mod exec_restore;
#[cfg(target_os = "linux")]
#[path = "pidfd_linux.rs"]
pub(crate) mod pidfd;
#[cfg(not(target_os = "linux"))]
#[path = "pidfd_none.rs"]
pub(crate) mod pidfd;
mod retry;
pub(crate) mod status;
pub(crate) mod stdio;

pub use child::Child;
pub use command::Command;
pub use child::ExitNotifier;
pub use command::{CommandArgs, CommandEnvs};
pub use status::{ExitStatus, Output};
pub use stdio::Stdio;
