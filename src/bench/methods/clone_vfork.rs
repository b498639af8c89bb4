//! Linux: `raw:clone_vfork`, clone(CLONE_VM | CLONE_VFORK) on its own small stack, then the
//! prepared child steps and execve. Nothing cheaper can start a program, so it is the floor.

use std::io;
use std::os::raw::{c_int, c_void};
use std::ptr;

use super::super::plan::exec_child;
use super::super::signals;
use super::super::workload::Workload;
use super::super::BenchError;
use super::{shared_vm, Candidate, Method};

pub const FLOOR: &str = "raw:clone_vfork";

/// Room for the child steps (a few libc calls) plus a guard page below.
const STACK_BYTES: usize = 64 * 1024;

pub fn methods(_: &Workload) -> Vec<Candidate> {
    vec![CloneVfork::candidate()]
}

pub struct CloneVfork {
    stack: Stack,
    /// Signals with handlers, reset in the child before it unblocks signals.
    reset: Vec<c_int>,
}

impl CloneVfork {
    fn candidate() -> Candidate {
        match Stack::new(STACK_BYTES) {
            Ok(stack) => Ok(Box::new(CloneVfork {
                stack,
                reset: signals::handled(),
            })),
            Err(e) => Err(super::Skipped {
                name: FLOOR,
                reason: format!("could not map a child stack: {e}"),
            }),
        }
    }
}

impl Method for CloneVfork {
    fn name(&self) -> &'static str {
        FLOOR
    }

    fn spawn_wait(&mut self, w: &Workload) -> Result<(), BenchError> {
        let top = self.stack.top();
        shared_vm::spawn_wait(self, w, &self.reset, |plan| {
            // SAFETY: the child runs on its own stack and only calls async-signal-safe
            // functions (`exec_child`) with signals blocked; CLONE_VFORK suspends this thread
            // until it has exec'd or exited, so the plan and the stack outlive its use.
            unsafe {
                libc::clone(
                    clone_entry,
                    top,
                    libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                    plan,
                )
            }
        })
    }
}

extern "C" fn clone_entry(plan: *mut c_void) -> c_int {
    // SAFETY: `plan` is the ChildPlan passed to clone above, alive until we exec.
    unsafe { exec_child(plan) }
}

/// An mmap'd stack with a PROT_NONE guard page at its low end.
struct Stack {
    base: *mut c_void,
    len: usize,
}

impl Stack {
    fn new(bytes: usize) -> io::Result<Stack> {
        let page = super::super::ballast::page_size()?;
        let len = bytes + page;
        // SAFETY: a fresh private anonymous mapping; results are checked.
        unsafe {
            let base = libc::mmap(
                ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            );
            if base == libc::MAP_FAILED {
                return Err(io::Error::last_os_error());
            }
            let stack = Stack { base, len };
            if libc::mprotect(base, page, libc::PROT_NONE) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(stack)
        }
    }

    /// The highest address, where a downward-growing stack starts (16-byte aligned: the
    /// mapping is page aligned).
    fn top(&self) -> *mut c_void {
        // SAFETY: one past the end of our own mapping.
        unsafe { self.base.cast::<u8>().add(self.len).cast() }
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly our own mapping; no child uses it any more.
        unsafe { libc::munmap(self.base, self.len) };
    }
}
