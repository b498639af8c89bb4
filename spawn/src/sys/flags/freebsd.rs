//! FreeBSD: the POSIX flags only; its `<spawn.h>` (14.0) declares no SETSID or USEVFORK.

use super::{posix_base_flags, posix_sched_flags, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[posix_base_flags!(), posix_sched_flags!()];
