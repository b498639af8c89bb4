//! The detectors themselves: spawners that break a guarantee on purpose must be caught, or
//! the load and storm tests could pass without looking.

use std::ffi::CString;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use spawnmatrix::fuzz::load::{self, LoadConfig, Pipes, Running, Spawner};
use spawnmatrix::fuzz::rawload::RawChild;
use spawnmatrix::fuzz::storm;

use super::subprocess::isolated;

/// fork, then (in the child) linger with the parent's handlers installed and signals
/// unblocked, optionally give the child an extra fd, then exec. Both are bugs a spawn
/// implementation must not have.
struct Careless {
    linger: Duration,
    leak_fd: Option<i32>,
}

impl Spawner for Careless {
    fn start(&self, program: &Path, pipes: Pipes) -> io::Result<Box<dyn Running>> {
        let prog = CString::new(program.as_os_str().as_bytes())?;
        let argv = [prog.as_ptr(), std::ptr::null()];
        let envp: [*const libc::c_char; 1] = [std::ptr::null()];
        let ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: self.linger.as_nanos() as libc::c_long,
        };
        let (fd0, fd1) = (pipes.stdin.as_raw_fd(), pipes.stdout.as_raw_fd());
        // SAFETY: the child only calls async-signal-safe functions on data prepared here.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            // SAFETY: as above; the child never returns.
            unsafe {
                libc::nanosleep(&ts, std::ptr::null_mut());
                libc::dup2(fd0, 0);
                libc::dup2(fd1, 1);
                if let Some(fd) = self.leak_fd {
                    libc::dup2(fd0, fd);
                }
                libc::execve(prog.as_ptr(), argv.as_ptr(), envp.as_ptr());
                libc::_exit(127);
            }
        }
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Box::new(RawChild(pid)))
    }
}

#[test]
fn the_load_check_catches_a_leaked_fd() {
    let config = LoadConfig {
        threads: 2,
        spawns_per_thread: 5,
        churn_threads: 1,
        deadline: Duration::from_secs(60),
    };
    let helper = spawnmatrix::child::helper_path().expect("child helper");
    // A number the parent does not pass on legitimately (cargo may hand down a few fds).
    let baseline = load::inheritable_fds();
    let leak_fd = (100..).find(|fd| !baseline.contains(fd));
    let spawner = Careless {
        linger: Duration::ZERO,
        leak_fd,
    };
    let report = load::run(&config, Arc::new(spawner), &helper);
    assert_eq!(report.leaks.len(), 10, "{report:#?}");
    assert!(!report.clean());
}

#[test]
fn the_storm_check_catches_a_handler_in_a_child() {
    isolated(
        "canary::the_storm_check_catches_a_handler_in_a_child",
        || {
            // SAFETY: makes this sub-process lead its own group, as the storm requires.
            assert_eq!(unsafe { libc::setpgid(0, 0) }, 0);
            let helper = spawnmatrix::child::helper_path().expect("child helper");
            let spawner = Careless {
                linger: Duration::from_millis(5),
                leak_fd: None,
            };
            let r = storm::run(Arc::new(spawner), &helper, 100, 2).expect("storm");
            println!("careless fork: {r:?}");
            assert!(
                r.in_child_pipe > 0,
                "the storm missed handlers running in children: {r:?}"
            );
        },
    );
}
