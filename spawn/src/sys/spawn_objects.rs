//! Owned `posix_spawn_file_actions_t` and `posix_spawnattr_t`: initialised with the return
//! code checked, destroyed on drop. The one place that owns these objects, for the shared
//! implementation's `posix_spawn` strategy (which checks every adder, `spawn::posix`) and for
//! the harnesses that call the raw libc (bench, fuzz, the conformance `libc` subject, which
//! record each adder's return code exactly as the libc gave it).
//!
//! The objects hold no pointer to themselves (glibc, musl: a struct with a heap pointer;
//! macOS, FreeBSD, Cygwin: a pointer), so they may move once initialised.

use std::io;
use std::mem::MaybeUninit;

/// An initialised `posix_spawn_file_actions_t`.
///
/// ```
/// use std::ffi::CString;
/// use spawnmatrix_spawn::sys::{check_rc, spawn_objects::{FileActions, SpawnAttr}};
///
/// let mut actions = FileActions::new()?;
/// let attr = SpawnAttr::new()?;
/// // The libc's own answer, kept as is (0, or an error number).
/// assert_eq!(actions.adddup2(2, 1), 0);
/// let program = CString::new("/bin/sh").unwrap();
/// let script = CString::new("exit 7").unwrap();
/// let argv = [program.as_ptr(), c"-c".as_ptr(), script.as_ptr(), std::ptr::null()];
/// let envp: [*const libc::c_char; 1] = [std::ptr::null()];
/// let mut pid = 0;
/// // SAFETY: every pointer is valid and NUL-terminated for the duration of the call.
/// check_rc(unsafe {
///     libc::posix_spawn(
///         &mut pid,
///         program.as_ptr(),
///         actions.as_ptr(),
///         attr.as_ptr(),
///         argv.as_ptr() as *const *mut libc::c_char,
///         envp.as_ptr() as *const *mut libc::c_char,
///     )
/// })?;
/// let mut status = 0;
/// // SAFETY: waits for the child just created.
/// assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
/// assert_eq!(libc::WEXITSTATUS(status), 7);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct FileActions(libc::posix_spawn_file_actions_t);

impl FileActions {
    /// `posix_spawn_file_actions_init`; its failure is an error (the libc's code), not ignored.
    pub fn new() -> io::Result<FileActions> {
        let mut raw = MaybeUninit::uninit();
        // SAFETY: init initialises the object when it returns 0.
        super::check_rc(unsafe {
            crate::sys::spawn_fns::posix_spawn_file_actions_init(raw.as_mut_ptr())
        })?;
        // SAFETY: initialised just above.
        Ok(FileActions(unsafe { raw.assume_init() }))
    }

    /// For the libc's `posix_spawn[p]`; valid while `self` lives and does not move.
    pub fn as_ptr(&self) -> *const libc::posix_spawn_file_actions_t {
        &self.0
    }

    /// For the libc's `posix_spawn_file_actions_add*`; valid while `self` lives and does not move.
    pub fn as_mut_ptr(&mut self) -> *mut libc::posix_spawn_file_actions_t {
        &mut self.0
    }

    /// `posix_spawn_file_actions_adddup2`, returning the libc's code as is.
    pub fn adddup2(&mut self, fd: libc::c_int, target: libc::c_int) -> libc::c_int {
        // SAFETY: initialised in `new`.
        unsafe { crate::sys::spawn_fns::posix_spawn_file_actions_adddup2(&mut self.0, fd, target) }
    }
}

impl Drop for FileActions {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` and destroyed only here. destroy of a valid object
        // cannot fail, and drop has nowhere to report to.
        unsafe { crate::sys::spawn_fns::posix_spawn_file_actions_destroy(&mut self.0) };
    }
}

/// An initialised `posix_spawnattr_t`.
pub struct SpawnAttr(libc::posix_spawnattr_t);

impl SpawnAttr {
    /// `posix_spawnattr_init`; its failure is an error (the libc's code), not ignored.
    pub fn new() -> io::Result<SpawnAttr> {
        let mut raw = MaybeUninit::uninit();
        // SAFETY: init initialises the object when it returns 0.
        super::check_rc(unsafe { crate::sys::spawn_fns::posix_spawnattr_init(raw.as_mut_ptr()) })?;
        // SAFETY: initialised just above.
        Ok(SpawnAttr(unsafe { raw.assume_init() }))
    }

    /// For the libc's `posix_spawn[p]`; valid while `self` lives and does not move.
    pub fn as_ptr(&self) -> *const libc::posix_spawnattr_t {
        &self.0
    }

    /// For the libc's `posix_spawnattr_set*`; valid while `self` lives and does not move.
    pub fn as_mut_ptr(&mut self) -> *mut libc::posix_spawnattr_t {
        &mut self.0
    }
}

impl Drop for SpawnAttr {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` and destroyed only here; cannot fail for a valid object.
        unsafe { crate::sys::spawn_fns::posix_spawnattr_destroy(&mut self.0) };
    }
}
