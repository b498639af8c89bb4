//! The private stack a `CLONE_VM` child runs on: mmap'd with a guard page, cached per thread
//! so a spawn costs no mmap. A thread's spawns are sequential (the parent is suspended until
//! the child execs or exits), so one stack per thread is enough.

use std::cell::Cell;
use std::io;

use crate::platform::errno::last;

/// Usable bytes. The child runs a few libc calls on data the parent prepared; it never
/// builds paths or argument arrays on this stack.
const SIZE: usize = 64 * 1024;

/// An mmap'd stack whose lowest page is inaccessible.
pub(crate) struct Stack {
    base: *mut libc::c_void,
    len: usize,
}

impl Stack {
    fn new() -> io::Result<Stack> {
        // SAFETY: sysconf has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
            .map_err(|_| io::Error::other("sysconf(_SC_PAGESIZE) failed"))?;
        let len = SIZE + page;
        // SAFETY: a new anonymous private mapping.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(last());
        }
        let stack = Stack { base, len };
        // SAFETY: the first page of the mapping made above.
        if unsafe { libc::mprotect(base, page, libc::PROT_NONE) } == -1 {
            return Err(last());
        }
        Ok(stack)
    }

    /// The lowest usable address is above the guard page; the child starts at `top()`.
    pub(crate) fn base(&self) -> *mut libc::c_void {
        self.base
    }

    /// Bytes from `base()` to the top, guard page included (clone3 takes base and size).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// One past the highest address (16-byte aligned, as mmap returns pages).
    pub(crate) fn top(&self) -> *mut libc::c_void {
        // SAFETY: one past the end of the mapping.
        unsafe { self.base.cast::<u8>().add(self.len).cast() }
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped only here. munmap of a valid mapping
        // cannot fail, and drop has nowhere to report to.
        unsafe { libc::munmap(self.base, self.len) };
    }
}

thread_local! {
    static CACHED: Cell<Option<Stack>> = const { Cell::new(None) };
}

/// Runs `f` with this thread's stack (made on first use, or a fresh one while the thread is
/// being torn down).
pub(crate) fn with_stack<R>(f: impl FnOnce(&Stack) -> R) -> io::Result<R> {
    let stack = match CACHED.try_with(Cell::take).ok().flatten() {
        Some(s) => s,
        None => Stack::new()?,
    };
    let r = f(&stack);
    let _ = CACHED.try_with(move |c| c.set(Some(stack)));
    Ok(r)
}
