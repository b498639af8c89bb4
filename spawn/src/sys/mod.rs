//! What the `libc` crate does not give this crate, per target.
//!
//! - [`spawn_ext`]: the newer spawn functions (`addchdir_np`, `addclosefrom_np`,
//!   `pidfd_spawn`, ...), found at run time with `dlsym` or, in static builds, by a link probe
//!   at build time, so that nothing newer than the build's libc baseline is linked hard.
//! - [`flags`]: the `POSIX_SPAWN_*` flag values known for this target, with where each value
//!   comes from (the `libc` crate, or a declaration here citing the system header).
//! - `linux_kernel` (Linux): `struct clone_args` and the clone3-only flags.
//! - `kernel_sigaction` (Linux, on the architectures whose layout it declares): the kernel's
//!   `struct sigaction` and signal-set size, `rt_sigaction` and `rt_sigprocmask`.
//! - `musl` (Linux musl): constants the `libc` crate lacks there.
//! - [`spawn_fns`]: POSIX's own `posix_spawn` functions, looked up at run time on Android
//!   (bionic has them from API 28; the `libc` crate declares none there).
//! - [`spawn_objects`]: the owned file-action and attribute objects, for the `posix_spawn`
//!   strategy and the raw-libc harnesses alike.
//! - [`check_rc`]: a returned error number (pthread_*, posix_spawn*) as an `io::Result`.
//! - [`symbols`]: the list of spawn symbols both of the above (and `build.rs`) know about.

pub mod errno;
pub mod flags;
#[cfg(spawnmatrix_raw_sigaction)]
pub mod kernel_sigaction;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub mod linux_kernel;
#[cfg(all(target_os = "linux", target_env = "musl"))]
pub mod musl;
pub mod spawn_ext;
pub mod spawn_fns;
pub mod spawn_objects;
pub mod symbols;

/// `Ok` for a libc call that returns the error number itself (pthread_*, posix_spawn*).
pub fn check_rc(rc: libc::c_int) -> std::io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::from_raw_os_error(rc))
    }
}

/// Declares module `$name` from the file for this platform family, next to the invoking
/// module: `$linux` on Linux, `apple.rs`, `freebsd.rs`, `cygwin.rs`, else `other.rs`. The one
/// place the families are told apart, for `sys` here and the tool's `platform` alike (hence
/// exported, hidden: it is workspace plumbing, not API).
#[doc(hidden)]
#[macro_export]
macro_rules! family_module {
    ($name:ident, linux = $linux:literal) => {
        #[cfg_attr(target_os = "linux", path = $linux)]
        #[cfg_attr(target_vendor = "apple", path = "apple.rs")]
        #[cfg_attr(target_os = "freebsd", path = "freebsd.rs")]
        #[cfg_attr(target_os = "cygwin", path = "cygwin.rs")]
        #[cfg_attr(
            not(any(
                target_os = "linux",
                target_vendor = "apple",
                target_os = "freebsd",
                target_os = "cygwin"
            )),
            path = "other.rs"
        )]
        mod $name;
    };
}
