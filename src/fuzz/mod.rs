//! Reliability tooling shared by `tests/fuzz.rs`, `tests/reliability.rs` and `spawnmatrix fuzz`.
//!
//! Differential fuzzing: [`gen`] draws random [`model::Sequence`]s (file actions in order plus
//! attributes) from a seed; each sequence runs through the raw libc ([`rawspawn`]), a plain
//! fork+exec reference ([`reference`](mod@reference)) and the shared implementation, each in its own
//! [`fixture::Fixture`]; the child helper reports what it saw and [`outcome`] normalises it so
//! the executors compare.

pub mod command;
pub mod explain;
pub mod fixture;
pub mod gen;
pub mod load;
pub mod model;
pub mod observe;
pub mod outcome;
pub mod rawload;
pub mod rawspawn;
pub mod reference;
pub mod run;
pub mod sharedload;
pub mod soak;
pub mod storm;
pub mod summary;
pub mod sys;
pub mod translate;

use std::io;

/// Waits for `pid` (retrying on `EINTR`) and returns its raw wait status.
pub fn reap(pid: libc::pid_t) -> io::Result<libc::c_int> {
    let mut status = 0;
    loop {
        // SAFETY: status is a valid out-pointer.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            return Ok(status);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}
