//! Cost when the parent holds many open fds, all close-on-exec (as std and this crate open
//! theirs): every strategy copies the fd table when the child is created and the kernel
//! closes the close-on-exec ones at `execve`; `close_fds(true)` also closes the rest.

use std::os::fd::{FromRawFd, OwnedFd};

use super::{median_us, points, samples_at, Failure, ScaleOptions, Spawner, Table};

const SPAWNERS: [Spawner; 4] = [
    Spawner::SharedAuto,
    Spawner::SharedCloseFds,
    Spawner::Std,
    Spawner::LibcPosixSpawn,
];

/// Headroom kept below the soft fd limit for the spawns' own pipes.
const HEADROOM: usize = 64;

/// Raises the soft `RLIMIT_NOFILE` to at least `want` if the hard limit allows; returns the
/// soft limit in force.
fn raise_nofile(want: usize) -> usize {
    // SAFETY: getrlimit/setrlimit on a valid struct.
    unsafe {
        let mut lim: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return 0;
        }
        let want = want as libc::rlim_t;
        if lim.rlim_cur < want && lim.rlim_max >= want {
            lim.rlim_cur = want;
            if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) != 0 {
                return 0;
            }
        }
        usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX)
    }
}

fn open_many(n: usize) -> std::io::Result<Vec<OwnedFd>> {
    let null = std::fs::File::open("/dev/null")?;
    let base = std::os::fd::AsRawFd::as_raw_fd(&null);
    (0..n)
        .map(|_| {
            // SAFETY: F_DUPFD_CLOEXEC returns a fresh fd (owned at once) or -1.
            let fd = unsafe { libc::fcntl(base, libc::F_DUPFD_CLOEXEC, 3) };
            if fd < 0 {
                return Err(std::io::Error::last_os_error());
            }
            // SAFETY: fd is fresh.
            Ok(unsafe { OwnedFd::from_raw_fd(fd) })
        })
        .collect()
}

pub(super) fn open_fds(options: &ScaleOptions) -> Result<Table, Failure> {
    let most = options.open_fds.iter().copied().max().unwrap_or(0);
    let limit = raise_nofile(most + HEADROOM);
    let (counts, skipped): (Vec<usize>, Vec<usize>) = options
        .open_fds
        .iter()
        .partition(|&&n| n + HEADROOM <= limit);
    let mut medians = Vec::new();
    for &n in &counts {
        let held = open_many(n)?;
        let s = samples_at(options, &SPAWNERS, &[])?;
        medians.push(s.iter().map(|v| median_us(v)).collect::<Vec<_>>());
        drop(held);
    }
    Ok(Table {
        dimension: "open_fds",
        title: String::from("Close-on-exec fds held by the parent (close_fds: a clean fd table)"),
        points: if counts.is_empty() {
            Vec::new()
        } else {
            points(&SPAWNERS, &counts, &medians)
        },
        skipped: (!skipped.is_empty())
            .then(|| format!("{skipped:?} open fds: RLIMIT_NOFILE is {limit}")),
    })
}
