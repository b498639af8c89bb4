//! An owned `posix_spawnattr_t`: initialised with its return code checked, destroyed on every
//! path.

use std::io;
use std::mem::MaybeUninit;

use crate::spawn::error::check_rc;

/// Attributes for one `posix_spawn` call.
pub(super) struct Attr(libc::posix_spawnattr_t);

impl Attr {
    pub(super) fn new() -> io::Result<Attr> {
        let mut raw = MaybeUninit::uninit();
        // SAFETY: init initialises the object when it returns 0.
        check_rc(unsafe { libc::posix_spawnattr_init(raw.as_mut_ptr()) })?;
        // SAFETY: initialised above; like the file actions it holds no pointer to itself.
        Ok(Attr(unsafe { raw.assume_init() }))
    }

    pub(super) fn as_ptr(&self) -> *const libc::posix_spawnattr_t {
        &self.0
    }

    pub(super) fn set_flags(&mut self, flags: libc::c_short) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { libc::posix_spawnattr_setflags(&mut self.0, flags) })
    }

    pub(super) fn set_pgroup(&mut self, pgid: libc::pid_t) -> io::Result<()> {
        // SAFETY: an initialised object.
        check_rc(unsafe { libc::posix_spawnattr_setpgroup(&mut self.0, pgid) })
    }

    pub(super) fn set_sigmask(&mut self, set: &libc::sigset_t) -> io::Result<()> {
        // SAFETY: an initialised object and set.
        check_rc(unsafe { libc::posix_spawnattr_setsigmask(&mut self.0, set) })
    }

    pub(super) fn set_sigdefault(&mut self, set: &libc::sigset_t) -> io::Result<()> {
        // SAFETY: an initialised object and set.
        check_rc(unsafe { libc::posix_spawnattr_setsigdefault(&mut self.0, set) })
    }
}

impl Drop for Attr {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` and destroyed only here; cannot fail for a valid object.
        unsafe { libc::posix_spawnattr_destroy(&mut self.0) };
    }
}
