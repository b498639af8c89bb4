//! Platforms without a module of their own: the flags every POSIX spawn.h has.

use super::flags::{libc_flags, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[libc_flags![
    POSIX_SPAWN_RESETIDS,
    POSIX_SPAWN_SETPGROUP,
    POSIX_SPAWN_SETSIGDEF,
    POSIX_SPAWN_SETSIGMASK,
]];
