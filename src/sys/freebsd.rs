//! FreeBSD: the POSIX flags only; its `<spawn.h>` (14.0) declares no SETSID or USEVFORK.

use super::flags::{libc_flags, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[libc_flags![
    POSIX_SPAWN_RESETIDS,
    POSIX_SPAWN_SETPGROUP,
    POSIX_SPAWN_SETSIGDEF,
    POSIX_SPAWN_SETSIGMASK,
    POSIX_SPAWN_SETSCHEDPARAM,
    POSIX_SPAWN_SETSCHEDULER,
]];
