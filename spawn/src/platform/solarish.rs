//! illumos and Solaris.

/// One above the highest signal number a `sigset_t` can hold (four 32-bit words); the kernel
/// refuses the numbers above its own `_SIGRTMAX`, which are then skipped as unknown.
pub(crate) const NSIG: libc::c_int = super::bsd_nsig();

/// Not observed here: the path is made absolute in the parent instead.
pub(crate) const POSIX_SPAWN_RELATIVE_AFTER_CHDIR: bool = false;

/// The search path when the child's environment has no `PATH`, as illumos' `execvp` chooses
/// it for a program not built for XPG4 (`usr/src/lib/libc/port/gen/execvp.c` at
/// illumos/illumos-gate@9c181088): `/usr/sbin` first when the real or effective uid is 0,
/// and a trailing empty entry (the working directory) otherwise. Solaris' libc shares that
/// OpenSolaris origin; its own source is not public and is not checked here.
pub(crate) fn default_path() -> &'static [u8] {
    // SAFETY: getuid and geteuid cannot fail and have no preconditions.
    if unsafe { libc::geteuid() == 0 || libc::getuid() == 0 } {
        b"/usr/sbin:/usr/ccs/bin:/usr/bin"
    } else {
        b"/usr/ccs/bin:/usr/bin:"
    }
}
