//! FreeBSD.

/// `_SIG_MAXSIG` is 128.
pub(in crate::spawn) const NSIG: libc::c_int = 129;

/// FreeBSD 14 has no `POSIX_SPAWN_SETSID` (platform-facts: FB-H14).
pub(in crate::spawn) const SETSID_FLAG: Option<libc::c_short> = None;

/// Not observed here: the path is made absolute in the parent instead.
pub(in crate::spawn) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;
