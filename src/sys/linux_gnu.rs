//! Linux with glibc: the `libc` crate lacks `POSIX_SPAWN_SETCGROUP` (glibc 2.39).

use super::flags::{libc_flags, DeclaredBy, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[
    libc_flags![
        POSIX_SPAWN_RESETIDS,
        POSIX_SPAWN_SETPGROUP,
        POSIX_SPAWN_SETSIGDEF,
        POSIX_SPAWN_SETSIGMASK,
        POSIX_SPAWN_SETSCHEDPARAM,
        POSIX_SPAWN_SETSCHEDULER,
        POSIX_SPAWN_SETSID,
        POSIX_SPAWN_USEVFORK,
    ],
    &[SpawnFlag {
        name: "POSIX_SPAWN_SETCGROUP",
        value: 0x100,
        declared_by: DeclaredBy::ThisCrate {
            source: "glibc posix/spawn.h (2.39+, under __USE_GNU)",
        },
    }],
];
