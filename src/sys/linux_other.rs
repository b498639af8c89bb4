//! Linux with musl (or another non-glibc libc): everything comes from the `libc` crate.

use super::flags::{libc_flags, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[libc_flags![
    POSIX_SPAWN_RESETIDS,
    POSIX_SPAWN_SETPGROUP,
    POSIX_SPAWN_SETSIGDEF,
    POSIX_SPAWN_SETSIGMASK,
    POSIX_SPAWN_SETSCHEDPARAM,
    POSIX_SPAWN_SETSCHEDULER,
    POSIX_SPAWN_SETSID,
    POSIX_SPAWN_USEVFORK,
]];
