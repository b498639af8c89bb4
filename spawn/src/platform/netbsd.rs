//! NetBSD.

/// One above the highest signal number a `sigset_t` can hold (see `bsd_nsig`); NetBSD's
/// `_NSIG` is 64 (`sys/sys/signal.h` at NetBSD/src@4303cb3c), so the rest are skipped as
/// unknown numbers.
pub(crate) const NSIG: libc::c_int = super::bsd_nsig();

/// Not observed here: the path is made absolute in the parent instead.
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;

/// The search path when the child's environment has no `PATH`: `_PATH_DEFPATH`, which
/// `<paths.h>` says `execvp` uses "absent PATH from the environ" (`include/paths.h` at
/// NetBSD/src@0007d7a1).
pub(crate) const DEFAULT_PATH: &[u8] = b"/usr/bin:/bin:/usr/pkg/bin:/usr/local/bin";
