//! Cygwin: the POSIX flags the `libc` crate declares.

use super::flags::{libc_flags, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[libc_flags![
    POSIX_SPAWN_RESETIDS,
    POSIX_SPAWN_SETPGROUP,
    POSIX_SPAWN_SETSIGDEF,
    POSIX_SPAWN_SETSIGMASK,
    POSIX_SPAWN_SETSCHEDPARAM,
    POSIX_SPAWN_SETSCHEDULER,
]];
