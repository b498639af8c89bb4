//! `raw:vfork`: vfork through the C shim, then the prepared child steps and execve.

use std::os::raw::{c_int, c_void};

use super::super::plan::exec_child;
use super::super::signals;
use super::super::workload::Workload;
use super::super::BenchError;
use super::{shared_vm, Candidate, Method};

extern "C" {
    /// vfork; the child calls `child(arg)`, which must not return (the shim `_exit(127)`s if
    /// it does). Defined in `vfork_shim.c`.
    fn spawnmatrix_bench_vfork(
        child: unsafe extern "C" fn(*mut c_void) -> c_int,
        arg: *mut c_void,
    ) -> libc::pid_t;
}

pub struct Vfork {
    reset: Vec<c_int>,
}

pub fn candidate(_: &Workload) -> Candidate {
    Ok(Box::new(Vfork {
        reset: signals::handled(),
    }))
}

impl Method for Vfork {
    fn name(&self) -> &'static str {
        "raw:vfork"
    }

    fn spawn_wait(&mut self, w: &Workload) -> Result<(), BenchError> {
        shared_vm::spawn_wait(self, w, &self.reset, |plan| {
            // SAFETY: the child only runs `exec_child` (async-signal-safe, never returns) with
            // signals blocked; vfork suspends us until it has exec'd or exited, so the plan
            // on our stack outlives its use.
            unsafe { spawnmatrix_bench_vfork(exec_child, plan) }
        })
    }
}
