//! Cygwin.

/// `_NSIG` is 65 ("signal 0 implied"; `SIGRTMAX` is `_NSIG - 1`) in Cygwin's
/// `winsup/cygwin/include/cygwin/signal.h`; the `libc` crate does not declare it.
pub(crate) const NSIG: libc::c_int = 65;

/// Cygwin's `posix_spawn` (newlib, imported from FreeBSD) is not observed here, so the path is
/// made absolute in the parent instead.
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;

/// The search path when the child's environment has no `PATH`. Cygwin's own `execvp`
/// default is not checked here; this is the crate's earlier default.
pub(crate) const DEFAULT_PATH: &[u8] = b"/bin:/usr/bin";
