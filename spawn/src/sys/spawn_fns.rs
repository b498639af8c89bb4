//! The `posix_spawn` functions of POSIX itself (as opposed to [`super::spawn_ext`]'s newer
//! ones): the `libc` crate's declarations, except on Android, where the `libc` crate declares
//! none and bionic has them only from API level 28. There each is looked up at run time, so a
//! binary still loads on older releases, and an absent one returns `ENOSYS` (which makes the
//! `posix_spawn` strategy unavailable, not a failed spawn).

#[cfg(not(target_os = "android"))]
pub use libc::{
    posix_spawn, posix_spawn_file_actions_addclose, posix_spawn_file_actions_adddup2,
    posix_spawn_file_actions_destroy, posix_spawn_file_actions_init, posix_spawnattr_destroy,
    posix_spawnattr_init, posix_spawnattr_setflags, posix_spawnattr_setpgroup,
    posix_spawnattr_setsigdefault, posix_spawnattr_setsigmask,
};

#[cfg(target_os = "android")]
#[path = "spawn_fns_android.rs"]
mod android;
#[cfg(target_os = "android")]
pub use android::*;
