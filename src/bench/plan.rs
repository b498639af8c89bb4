//! What a child made by fork, vfork or clone does between its creation and execve. Everything
//! is prepared by the parent, so the child only makes async-signal-safe calls: it allocates
//! nothing, takes no lock and cannot panic or unwind (no indexing, no formatting).

use std::ffi::{CString, OsStr};
use std::io;
use std::os::raw::{c_char, c_int, c_void};
use std::os::unix::ffi::OsStrExt;
use std::ptr;

/// A NULL-terminated array of C strings (argv or envp) that owns its strings.
pub struct CStringArray {
    _strings: Vec<CString>,
    ptrs: Vec<*const c_char>,
}

impl CStringArray {
    pub fn new<I, S>(items: I) -> io::Result<CStringArray>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let strings = items
            .into_iter()
            .map(|s| cstring(s.as_ref()))
            .collect::<io::Result<Vec<_>>>()?;
        let ptrs = strings
            .iter()
            .map(|s| s.as_ptr())
            .chain(std::iter::once(ptr::null()))
            .collect();
        Ok(CStringArray {
            _strings: strings,
            ptrs,
        })
    }

    /// The array as execve and posix_spawn take it.
    pub fn as_ptr(&self) -> *const *const c_char {
        self.ptrs.as_ptr()
    }
}

/// An OS string as a C string; interior NUL bytes are an error.
pub fn cstring(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{s:?} contains a NUL byte"),
        )
    })
}

/// The child's instructions: plain pointers and numbers, read-only in the child.
#[repr(C)]
pub struct ChildPlan {
    pub path: *const c_char,
    pub argv: *const *const c_char,
    pub envp: *const *const c_char,
    /// Directory to fchdir into, or -1.
    pub dir_fd: c_int,
    /// Fd to become the child's stdin, or -1 to inherit.
    pub stdin_fd: c_int,
    /// Fd to become the child's stdout, or -1 to inherit.
    pub stdout_fd: c_int,
    /// Signals whose handlers must be reset to SIG_DFL before the mask is restored (a child
    /// sharing the parent's memory must never run the parent's handlers).
    pub reset: *const c_int,
    pub reset_len: usize,
    /// Signal mask to restore before execve, or NULL to leave the mask as it is.
    pub mask: *const libc::sigset_t,
}

/// The child side: fchdir, dup2 stdio into place, reset handlers, restore the mask, execve.
/// Exits with 127 if any step fails, which the parent reports as a failed child.
///
/// # Safety
/// `plan` must point to a valid [`ChildPlan`] whose pointers stay valid until the child has
/// exec'd or exited. Call only in a freshly created child process.
pub unsafe extern "C" fn exec_child(plan: *mut c_void) -> c_int {
    let p = &*(plan as *const ChildPlan);
    if p.dir_fd >= 0 && libc::fchdir(p.dir_fd) != 0 {
        libc::_exit(127);
    }
    if !redirect(p.stdin_fd, 0) || !redirect(p.stdout_fd, 1) {
        libc::_exit(127);
    }
    let mut i = 0;
    while i < p.reset_len {
        if libc::signal(*p.reset.add(i), libc::SIG_DFL) == libc::SIG_ERR {
            libc::_exit(127);
        }
        i += 1;
    }
    if !p.mask.is_null() && libc::sigprocmask(libc::SIG_SETMASK, p.mask, ptr::null_mut()) != 0 {
        libc::_exit(127);
    }
    libc::execve(p.path, p.argv, p.envp);
    libc::_exit(127)
}

/// Makes `fd` the child's `target`, clearing close-on-exec when it is already there.
unsafe fn redirect(fd: c_int, target: c_int) -> bool {
    if fd < 0 {
        true
    } else if fd == target {
        libc::fcntl(fd, libc::F_SETFD, 0) == 0
    } else {
        libc::dup2(fd, target) == target
    }
}
