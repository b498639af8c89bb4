//! An owned `posix_spawn_file_actions_t`: initialised with its return code checked, destroyed
//! on every path.

use std::ffi::CStr;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::RawFd;

use crate::spawn::error::check_rc;
use crate::sys::spawn_ext;

/// File actions for one `posix_spawn` call.
pub(super) struct FileActions(libc::posix_spawn_file_actions_t);

impl FileActions {
    pub(super) fn new() -> io::Result<FileActions> {
        let mut raw = MaybeUninit::uninit();
        // SAFETY: init initialises the object when it returns 0.
        check_rc(unsafe { libc::posix_spawn_file_actions_init(raw.as_mut_ptr()) })?;
        // SAFETY: initialised just above. The object holds no pointer to itself (glibc, musl:
        // a struct with a heap pointer; macOS, FreeBSD: a pointer), so it may move.
        Ok(FileActions(unsafe { raw.assume_init() }))
    }

    pub(super) fn as_ptr(&self) -> *const libc::posix_spawn_file_actions_t {
        &self.0
    }

    pub(super) fn dup2(&mut self, from: RawFd, to: RawFd) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { libc::posix_spawn_file_actions_adddup2(&mut self.0, from, to) })
    }

    /// `addchdir`; the caller has checked that the platform has it.
    pub(super) fn chdir(&mut self, f: spawn_ext::AddPathFn, path: &CStr) -> io::Result<()> {
        // SAFETY: an initialised object and a NUL-terminated path (copied by the libc).
        check_rc(unsafe { f(&mut self.0, path.as_ptr()) })
    }

    /// `addfchdir`; `fd` is open here, so glibc's lack of an add-time check changes nothing.
    pub(super) fn fchdir(&mut self, f: spawn_ext::AddFdFn, fd: RawFd) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { f(&mut self.0, fd) })
    }
}

impl Drop for FileActions {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` and destroyed only here. destroy of a valid object
        // cannot fail, and drop has nowhere to report to.
        unsafe { libc::posix_spawn_file_actions_destroy(&mut self.0) };
    }
}
