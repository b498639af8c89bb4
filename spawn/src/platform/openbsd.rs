//! OpenBSD.

/// One above the highest signal number a `sigset_t` can hold: one 32-bit word, signals 1–32
/// ("mask is 1-32", `sys/sys/signal.h` at openbsd/src@52a0e603).
pub(crate) const NSIG: libc::c_int = super::bsd_nsig();

/// Not observed here: the path is made absolute in the parent instead.
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;

/// The search path when the child's environment has no `PATH`: `_PATH_DEFPATH` from
/// `<paths.h>` ("Default search path", `include/paths.h` at openbsd/src@06e49427), which
/// `execvp` (`lib/libc/gen/exec.c`) falls back to.
pub(crate) const DEFAULT_PATH: &[u8] = b"/usr/bin:/bin";
