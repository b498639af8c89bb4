//! FreeBSD libc.

use libc::c_int;

use super::LibcId;

pub const SCHED_POLICIES: &[(&str, c_int)] = &[
    ("SCHED_OTHER", libc::SCHED_OTHER),
    ("SCHED_FIFO", libc::SCHED_FIFO),
    ("SCHED_RR", libc::SCHED_RR),
];

pub fn libc_identity() -> LibcId {
    LibcId {
        name: "freebsd-libc",
        version: None,
        family: "freebsd",
    }
}
