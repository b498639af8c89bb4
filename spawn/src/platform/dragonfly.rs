//! DragonFly BSD.

/// One above the highest signal number a `sigset_t` can hold (four 32-bit words, as on
/// FreeBSD, whose `_SIG_MAXSIG` is 128).
pub(crate) const NSIG: libc::c_int = super::bsd_nsig();

/// Not observed here: the path is made absolute in the parent instead.
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;

/// The search path when the child's environment has no `PATH`: `_PATH_DEFPATH` ("Default
/// search path", `include/paths.h` at DragonFlyBSD/DragonFlyBSD@0d5acd74).
pub(crate) const DEFAULT_PATH: &[u8] =
    b"/bin:/sbin:/usr/bin:/usr/sbin:/usr/local/bin:/usr/local/sbin:/usr/pkg/bin:/usr/pkg/sbin";
