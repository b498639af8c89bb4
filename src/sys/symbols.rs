//! The spawn-family symbols this crate looks for. `build.rs` includes this file to link-probe
//! each one for static targets, so the list lives in one place.

/// Every symbol [`crate::sys::spawn_ext`] can resolve, oldest first. `posix_spawn` is the
/// baseline: if a link probe cannot find it, the probe itself does not work.
pub const SPAWN_SYMBOLS: &[&str] = &[
    "posix_spawn",
    "posix_spawnp",
    "posix_spawn_file_actions_addchdir_np",
    "posix_spawn_file_actions_addfchdir_np",
    "posix_spawn_file_actions_addchdir",
    "posix_spawn_file_actions_addfchdir",
    "posix_spawn_file_actions_addclosefrom_np",
    "posix_spawn_file_actions_addtcsetpgrp_np",
    "posix_spawn_file_actions_addinherit_np",
    "posix_spawnattr_setcgroup_np",
    "pidfd_spawn",
    "pidfd_spawnp",
];
