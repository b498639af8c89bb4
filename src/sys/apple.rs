//! Apple: the `libc` crate lacks `POSIX_SPAWN_SETSID`. macOS has no SETSCHEDULER or
//! SETSCHEDPARAM flags at all.

use super::flags::{libc_flags, DeclaredBy, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[
    libc_flags![
        POSIX_SPAWN_RESETIDS,
        POSIX_SPAWN_SETPGROUP,
        POSIX_SPAWN_SETSIGDEF,
        POSIX_SPAWN_SETSIGMASK,
        POSIX_SPAWN_CLOEXEC_DEFAULT,
        POSIX_SPAWN_SETEXEC,
        POSIX_SPAWN_START_SUSPENDED,
    ],
    &[SpawnFlag {
        name: "POSIX_SPAWN_SETSID",
        value: 0x400,
        declared_by: DeclaredBy::ThisCrate {
            source: "xnu bsd/sys/spawn.h (macOS 10.15+, first in xnu-6153)",
        },
    }],
];
