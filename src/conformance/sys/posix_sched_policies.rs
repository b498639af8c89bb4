//! The three POSIX scheduling policies, for platforms whose `libc` crate module defines only
//! those (FreeBSD; Cygwin, whose newlib `posix_spawn` implements the sched attributes).

use libc::c_int;

pub const SCHED_POLICIES: &[(&str, c_int)] = &[
    ("SCHED_OTHER", libc::SCHED_OTHER),
    ("SCHED_FIFO", libc::SCHED_FIFO),
    ("SCHED_RR", libc::SCHED_RR),
];
