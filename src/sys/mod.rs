//! What the `libc` crate does not give this crate, per target.
//!
//! - [`spawn_ext`]: the newer spawn functions (`addchdir_np`, `addclosefrom_np`,
//!   `pidfd_spawn`, ...), found at run time with `dlsym` or, in static builds, by a link probe
//!   at build time, so that nothing newer than the build's libc baseline is linked hard.
//! - [`flags`]: the `POSIX_SPAWN_*` flag values known for this target, with where each value
//!   comes from (the `libc` crate, or a declaration here citing the system header).
//! - `linux_kernel` (Linux): `struct clone_args` and the clone3-only flags.
//! - [`symbols`]: the list of spawn symbols both of the above (and `build.rs`) know about.

pub mod flags;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub mod linux_kernel;
pub mod spawn_ext;
pub mod symbols;

// One module per platform: the flag values the `libc` crate lacks there.
#[cfg_attr(target_os = "linux", path = "linux.rs")]
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
mod platform;
