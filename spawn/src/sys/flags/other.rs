//! Platforms without a module of their own: the flags every POSIX spawn.h has.

use super::{posix_base_flags, SpawnFlag};

pub(super) const FLAGS: &[&[SpawnFlag]] = &[posix_base_flags!()];
