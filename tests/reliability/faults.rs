//! Fault: the fd table full (`RLIMIT_NOFILE`). Runs in a sub-process: limits are process-wide.

use std::os::fd::OwnedFd;

use spawnmatrix::fuzz::load::{run_once, Ended, Pipes, Spawner};
use spawnmatrix::fuzz::rawload::RawPosixSpawn;
use spawnmatrix::fuzz::sharedload::SharedSpawn;
use spawnmatrix::fuzz::sys::pipe_cloexec;

use super::rlimit::{limit, set_soft};
use super::strategies::each;
use super::subprocess::isolated;

/// The open fds of this process, ascending.
fn open_fds() -> Vec<i32> {
    (0..65_536)
        // SAFETY: F_GETFD only queries.
        .filter(|fd| unsafe { libc::fcntl(*fd, libc::F_GETFD) } >= 0)
        .collect()
}

/// With the fd table full, a spawn succeeds or fails with EMFILE, leaks nothing, and the next
/// spawn after the limit is raised works. Returns what the full-table spawn did.
pub fn fd_exhaustion(name: &str, spawner: &dyn Spawner) -> String {
    let helper = spawnmatrix::child::helper_path().expect("child helper");
    let (in_r, in_w) = pipe_cloexec().expect("pipe");
    let (out_r, out_w) = pipe_cloexec().expect("pipe");
    let old = limit(libc::RLIMIT_NOFILE);
    let highest = *open_fds().last().expect("some fd is open");
    set_soft(libc::RLIMIT_NOFILE, highest as libc::rlim_t + 1);
    let mut filler: Vec<OwnedFd> = Vec::new();
    while let Ok(f) = std::fs::File::open("/dev/null") {
        filler.push(f.into());
    }
    let full = open_fds();
    let attempt = spawner.start(
        &helper,
        Pipes {
            stdin: in_r,
            stdout: out_w,
        },
    );
    let what = match attempt {
        Ok(child) => {
            drop(in_w);
            let ended = child.wait().expect("wait");
            assert_eq!(
                ended,
                Ended::Code(0),
                "{name}: child with a full parent table"
            );
            String::from("succeeded")
        }
        Err(e) => {
            assert_eq!(
                e.raw_os_error(),
                Some(libc::EMFILE),
                "{name}: full table gave {e}"
            );
            String::from("EMFILE")
        }
    };
    drop(out_r);
    let after = open_fds();
    let expected: Vec<i32> = full.into_iter().filter(|fd| after.contains(fd)).collect();
    assert_eq!(after, expected, "{name}: the spawn left fds behind");
    drop(filler);
    set_soft(libc::RLIMIT_NOFILE, old.rlim_cur);
    let next = run_once(spawner, &helper).expect("spawn after raising the limit");
    assert_eq!(
        next.ended,
        Ended::Code(0),
        "{name}: spawn after raising the limit"
    );
    println!("{name}: spawn with a full fd table: {what}; next spawn ok");
    what
}

#[test]
fn raw_posix_spawn_fd_exhaustion() {
    isolated("faults::raw_posix_spawn_fd_exhaustion", || {
        fd_exhaustion("libc posix_spawn", &RawPosixSpawn);
    });
}

#[test]
fn shared_fd_exhaustion() {
    isolated("faults::shared_fd_exhaustion", || {
        each(|strategy| {
            fd_exhaustion(&format!("shared {strategy}"), &SharedSpawn(strategy));
        })
    });
}
