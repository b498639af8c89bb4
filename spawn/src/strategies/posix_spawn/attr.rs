//! The attributes of the `posix_spawn` strategy: the owned object from
//! `crate::sys::spawn_objects`, with every setter's return code turned into an `io::Error`.

use std::io;

use crate::platform::errno::check_rc;
use crate::sys::spawn_objects::SpawnAttr;

/// Attributes for one `posix_spawn` call, every setter's code checked.
pub(super) struct Attr(SpawnAttr);

impl Attr {
    pub(super) fn new() -> io::Result<Attr> {
        SpawnAttr::new().map(Attr)
    }

    pub(super) fn as_ptr(&self) -> *const libc::posix_spawnattr_t {
        self.0.as_ptr()
    }

    pub(super) fn set_flags(&mut self, flags: libc::c_short) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { crate::sys::spawn_fns::posix_spawnattr_setflags(self.0.as_mut_ptr(), flags) })
    }

    pub(super) fn set_pgroup(&mut self, pgid: libc::pid_t) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { crate::sys::spawn_fns::posix_spawnattr_setpgroup(self.0.as_mut_ptr(), pgid) })
    }

    pub(super) fn set_sigmask(&mut self, set: &libc::sigset_t) -> io::Result<()> {
        // SAFETY: an initialised object and set.
        check_rc(unsafe { crate::sys::spawn_fns::posix_spawnattr_setsigmask(self.0.as_mut_ptr(), set) })
    }

    pub(super) fn set_sigdefault(&mut self, set: &libc::sigset_t) -> io::Result<()> {
        // SAFETY: an initialised object and set.
        check_rc(unsafe { crate::sys::spawn_fns::posix_spawnattr_setsigdefault(self.0.as_mut_ptr(), set) })
    }
}
