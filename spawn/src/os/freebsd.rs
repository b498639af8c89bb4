//! FreeBSD.

/// `_SIG_MAXSIG` is 128.
pub(crate) const NSIG: libc::c_int = 129;

/// Not observed here: the path is made absolute in the parent instead.
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;
