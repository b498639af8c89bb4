//! Linux (any libc): spawn flags and scheduling policies.

use libc::c_int;

pub const SPAWN_FLAGS: &[(&str, c_int)] = &[
    ("SETSCHEDPARAM", libc::POSIX_SPAWN_SETSCHEDPARAM),
    ("SETSCHEDULER", libc::POSIX_SPAWN_SETSCHEDULER),
    ("SETSID", libc::POSIX_SPAWN_SETSID as c_int),
    ("USEVFORK", libc::POSIX_SPAWN_USEVFORK as c_int),
];

pub const SCHED_POLICIES: &[(&str, c_int)] = &[
    ("SCHED_OTHER", libc::SCHED_OTHER),
    ("SCHED_FIFO", libc::SCHED_FIFO),
    ("SCHED_RR", libc::SCHED_RR),
    ("SCHED_BATCH", libc::SCHED_BATCH),
    ("SCHED_IDLE", libc::SCHED_IDLE),
];
