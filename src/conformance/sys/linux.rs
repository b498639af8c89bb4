//! Linux (any libc): scheduling policies, the names Linux adds to the portable ones, the
//! real-time signal range, and listing open fds.

use libc::c_int;

/// Signals Linux names beyond the portable table (`conformance::names`).
pub const EXTRA_SIGNALS: &[(&str, c_int)] =
    &[("SIGSTKFLT", libc::SIGSTKFLT), ("SIGPWR", libc::SIGPWR)];

/// Open flags beyond the portable table.
pub const EXTRA_OPEN_FLAGS: &[(&str, c_int)] = &[("O_PATH", libc::O_PATH)];

/// `SIGRTMIN..=SIGRTMAX` as this libc gives them at run time (glibc 34, musl 35: the numbers
/// below are the libc's own).
pub fn realtime_signals() -> Option<(c_int, c_int)> {
    Some((libc::SIGRTMIN(), libc::SIGRTMAX()))
}

pub const SCHED_POLICIES: &[(&str, c_int)] = &[
    ("SCHED_OTHER", libc::SCHED_OTHER),
    ("SCHED_FIFO", libc::SCHED_FIFO),
    ("SCHED_RR", libc::SCHED_RR),
    ("SCHED_BATCH", libc::SCHED_BATCH),
    ("SCHED_IDLE", libc::SCHED_IDLE),
];

/// Open descriptors of this process, ascending, from `/proc/self/fd` (one directory read
/// instead of a `fcntl` per possible number). The directory's own descriptor is left out.
pub fn open_fds() -> Vec<i32> {
    let listed: Vec<i32> = match std::fs::read_dir("/proc/self/fd") {
        Ok(dir) => dir
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .collect(),
        Err(_) => return super::fd_scan::open_fds(),
    };
    // SAFETY: F_GETFD only queries; the directory's own fd is closed by now.
    let mut fds: Vec<i32> = listed
        .into_iter()
        .filter(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0)
        .collect();
    fds.sort_unstable();
    fds
}
