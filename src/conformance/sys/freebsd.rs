//! FreeBSD libc: extensions by `dlsym`; no SETSID flag (14.0).

use libc::c_int;

use super::{Ext, LibcId};

pub const SPAWN_FLAGS: &[(&str, c_int)] = &[
    ("SETSCHEDPARAM", libc::POSIX_SPAWN_SETSCHEDPARAM as c_int),
    ("SETSCHEDULER", libc::POSIX_SPAWN_SETSCHEDULER as c_int),
];

pub const SCHED_POLICIES: &[(&str, c_int)] = &[
    ("SCHED_OTHER", libc::SCHED_OTHER),
    ("SCHED_FIFO", libc::SCHED_FIFO),
    ("SCHED_RR", libc::SCHED_RR),
];

pub fn ext() -> Ext {
    Ext::by_dlsym()
}

pub fn libc_identity() -> LibcId {
    LibcId {
        name: "freebsd-libc",
        version: None,
        family: "freebsd",
    }
}
