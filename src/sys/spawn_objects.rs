//! Owned `posix_spawn_file_actions_t` and `posix_spawnattr_t` for the harnesses that call the
//! raw libc (bench, fuzz): initialised with the return code checked, destroyed on drop.
//!
//! They return raw libc return codes from the adders, because those callers record exactly
//! what the libc said. Boxed, so the address handed to the libc never moves.

use std::io;
use std::mem::MaybeUninit;

/// An initialised `posix_spawn_file_actions_t`.
pub struct FileActions(Box<MaybeUninit<libc::posix_spawn_file_actions_t>>);

impl FileActions {
    /// `posix_spawn_file_actions_init`; its failure is an error, not ignored.
    pub fn new() -> io::Result<FileActions> {
        let mut fa = Box::new(MaybeUninit::uninit());
        // SAFETY: init writes a valid object into the boxed storage; the code is checked.
        let rc = unsafe { libc::posix_spawn_file_actions_init(fa.as_mut_ptr()) };
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        Ok(FileActions(fa))
    }

    pub fn as_mut_ptr(&mut self) -> *mut libc::posix_spawn_file_actions_t {
        self.0.as_mut_ptr()
    }

    /// `posix_spawn_file_actions_adddup2`, returning the libc's code as is.
    pub fn adddup2(&mut self, fd: libc::c_int, target: libc::c_int) -> libc::c_int {
        // SAFETY: initialised in `new`.
        unsafe { libc::posix_spawn_file_actions_adddup2(self.as_mut_ptr(), fd, target) }
    }
}

impl Drop for FileActions {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` and destroyed once.
        unsafe { libc::posix_spawn_file_actions_destroy(self.0.as_mut_ptr()) };
    }
}

/// An initialised `posix_spawnattr_t`.
pub struct SpawnAttr(Box<MaybeUninit<libc::posix_spawnattr_t>>);

impl SpawnAttr {
    /// `posix_spawnattr_init`; its failure is an error, not ignored.
    pub fn new() -> io::Result<SpawnAttr> {
        let mut a = Box::new(MaybeUninit::uninit());
        // SAFETY: init writes a valid object into the boxed storage; the code is checked.
        let rc = unsafe { libc::posix_spawnattr_init(a.as_mut_ptr()) };
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        Ok(SpawnAttr(a))
    }

    pub fn as_mut_ptr(&mut self) -> *mut libc::posix_spawnattr_t {
        self.0.as_mut_ptr()
    }
}

impl Drop for SpawnAttr {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` and destroyed once.
        unsafe { libc::posix_spawnattr_destroy(self.0.as_mut_ptr()) };
    }
}
