//! The parent side of a child that shares the parent's memory until it execs (vfork,
//! clone with CLONE_VM | CLONE_VFORK): every signal blocked across the call, the prepared
//! plan handed to the child, then the child reaped.

use std::io;
use std::os::raw::{c_int, c_void};

use super::super::reap::reap;
use super::super::signals::BlockAll;
use super::super::workload::Workload;
use super::super::BenchError;
use super::fork::spawn_error;
use super::Method;

/// Spawns through `create`, which must start a child running
/// [`exec_child`](super::super::plan::exec_child) on the plan it is given and return the
/// child's pid (or -1 with errno set), suspending the caller until the child has exec'd.
/// `reset` lists the signals with handlers.
pub fn spawn_wait(
    method: &dyn Method,
    w: &Workload,
    reset: &[c_int],
    create: impl FnOnce(*mut c_void) -> libc::pid_t,
) -> Result<(), BenchError> {
    let mut fds = w.spawn_fds().map_err(|e| spawn_error(method, e))?;
    let blocked = BlockAll::new().map_err(|e| spawn_error(method, e))?;
    let plan = w.child_plan(&fds, reset, Some(blocked.old_mask()));
    let pid = create(&plan as *const _ as *mut c_void);
    let err = io::Error::last_os_error();
    drop(blocked);
    fds.spawned();
    if pid < 0 {
        return Err(spawn_error(method, err));
    }
    reap(method.name(), pid)
}
