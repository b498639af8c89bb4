//! Linux: the `libc` crate lacks glibc's `POSIX_SPAWN_SETCGROUP` (2.39); musl has no such flag.

use super::{libc_flags, posix_base_flags, posix_sched_flags, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[
    posix_base_flags!(),
    posix_sched_flags!(),
    libc_flags![POSIX_SPAWN_SETSID, POSIX_SPAWN_USEVFORK],
    GLIBC_ONLY,
];

#[cfg(target_env = "gnu")]
const GLIBC_ONLY: &[SpawnFlag] = &[SpawnFlag {
    name: "POSIX_SPAWN_SETCGROUP",
    value: 0x100,
    declared_by: super::DeclaredBy::ThisCrate {
        source: "glibc posix/spawn.h (2.39+, under __USE_GNU)",
    },
}];
#[cfg(not(target_env = "gnu"))]
const GLIBC_ONLY: &[SpawnFlag] = &[];
