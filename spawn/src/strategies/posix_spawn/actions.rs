//! The file actions of the `posix_spawn` strategy: the owned object from
//! `crate::sys::spawn_objects`, with every adder's return code turned into an `io::Error`.

use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;

use crate::platform::errno::check_rc;
use crate::sys::{spawn_ext, spawn_objects};

/// File actions for one `posix_spawn` call, every adder's code checked.
pub(super) struct FileActions(spawn_objects::FileActions);

impl FileActions {
    pub(super) fn new() -> io::Result<FileActions> {
        spawn_objects::FileActions::new().map(FileActions)
    }

    pub(super) fn as_ptr(&self) -> *const libc::posix_spawn_file_actions_t {
        self.0.as_ptr()
    }

    pub(super) fn dup2(&mut self, from: RawFd, to: RawFd) -> io::Result<()> {
        check_rc(self.0.adddup2(from, to))
    }

    pub(super) fn close(&mut self, fd: RawFd) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { crate::sys::spawn_fns::posix_spawn_file_actions_addclose(self.0.as_mut_ptr(), fd) })
    }

    /// An fd adder looked up at run time (`addclosefrom_np`, `addinherit_np`); the caller
    /// has checked that the platform has it.
    pub(super) fn add_fd(&mut self, f: spawn_ext::AddFdFn, fd: RawFd) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { f(self.0.as_mut_ptr(), fd) })
    }

    /// `addtcsetpgrp_np`; the caller has checked that the platform has it.
    pub(super) fn tcsetpgrp(&mut self, f: spawn_ext::AddFdFn, tty: RawFd) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { f(self.0.as_mut_ptr(), tty) })
    }

    /// `addchdir`; the caller has checked that the platform has it.
    pub(super) fn chdir(&mut self, f: spawn_ext::AddPathFn, path: &CStr) -> io::Result<()> {
        // SAFETY: an initialised object and a NUL-terminated path (copied by the libc).
        check_rc(unsafe { f(self.0.as_mut_ptr(), path.as_ptr()) })
    }

    /// `addfchdir`; `fd` is open here, so glibc's lack of an add-time check changes nothing.
    pub(super) fn fchdir(&mut self, f: spawn_ext::AddFdFn, fd: RawFd) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { f(self.0.as_mut_ptr(), fd) })
    }
}
