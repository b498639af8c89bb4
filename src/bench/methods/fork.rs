//! `raw:fork`: fork, then the prepared child steps and execve. Its cost grows with the
//! parent's page tables; it is the baseline the others are meant to beat.

use std::io;
use std::os::raw::c_void;

use super::super::plan::exec_child;
use super::super::reap::reap;
use super::super::workload::Workload;
use super::super::BenchError;
use super::{Candidate, Method};

pub struct Fork;

impl Fork {
    pub fn candidate(_: &Workload) -> Candidate {
        Ok(Box::new(Fork))
    }
}

impl Method for Fork {
    fn name(&self) -> &'static str {
        "raw:fork"
    }

    fn spawn_wait(&mut self, w: &Workload) -> Result<(), BenchError> {
        let mut fds = w.spawn_fds().map_err(|e| spawn_error(self, e))?;
        // A forked child has its own memory: handlers and mask need no special care.
        let plan = w.child_plan(&fds, &[], None);
        // SAFETY: the child only runs `exec_child`, which is async-signal-safe and never
        // returns; the plan lives on this stack, copied into the child.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe {
                exec_child(&plan as *const _ as *mut c_void);
                libc::_exit(127);
            }
        }
        let err = io::Error::last_os_error();
        fds.spawned();
        if pid < 0 {
            return Err(spawn_error(self, err));
        }
        reap(self.name(), pid)
    }
}

/// A spawn error naming `method`.
pub fn spawn_error(method: &dyn Method, source: io::Error) -> BenchError {
    BenchError::Spawn {
        method: method.name().to_string(),
        source,
    }
}
