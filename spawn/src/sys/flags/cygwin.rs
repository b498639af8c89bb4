//! Cygwin: the POSIX flags the `libc` crate declares (newlib's spawn.h has no SETSID).

use super::{posix_base_flags, posix_sched_flags, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[posix_base_flags!(), posix_sched_flags!()];
