//! The environment changes a `Command` asks for; the plan builds the child's `envp` from them
//! (`plan/env.rs`).

use std::collections::BTreeMap;
use std::ffi::OsString;

/// Changes to the parent's environment requested on a `Command`.
#[derive(Clone, Debug, Default)]
pub(crate) struct EnvChanges {
    /// Start from an empty environment instead of the parent's.
    pub clear: bool,
    /// `Some(value)` sets, `None` removes.
    pub vars: BTreeMap<OsString, Option<OsString>>,
}
