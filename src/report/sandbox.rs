//! The `sandbox` section of a report: what the shared spawn did under each seccomp profile
//! (`src/sandbox`), observed on that machine by `spawnmatrix sandbox PROFILE --observe`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One profile's run: the strategy `Auto` took and what each forced strategy answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxRun {
    /// The strategy `Auto` took for a plain spawn (`clone_vfork`, `fork`, ...), or
    /// `error: <what>` when it could not spawn.
    pub auto: String,
    /// Per forced strategy (`clone3`, `clone_vfork`, `posix_spawn`, `fork`): `works` (the
    /// child ran and exited 0), `unsupported` (refused before anything ran), or
    /// `error: <what>`.
    pub forced: BTreeMap<String, String>,
    /// The raw libc under the profile, keyed by call: `posix_spawn` (the program spawned and
    /// waited for: `works` or `error: <what>`) and `posix_spawn_missing` (a program that does
    /// not exist: `error: ENOENT` when the libc reports it, `error lost: <what>` when it
    /// returns 0 and only the child's exit status tells). Absent in runs recorded before it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub libc: BTreeMap<String, String>,
}
