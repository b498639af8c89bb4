//! Apple: the `libc` crate lacks `POSIX_SPAWN_SETSID`. macOS has no SETSCHEDULER or
//! SETSCHEDPARAM flags at all.

use super::{libc_flags, posix_base_flags, DeclaredBy, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[
    posix_base_flags!(),
    libc_flags![
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
