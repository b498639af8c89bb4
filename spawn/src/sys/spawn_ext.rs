//! The newer spawn functions, found at run time and cached: `None` means this process cannot
//! use the function (the libc lacks it).
//!
//! Dynamic builds ask the loaded libc with `dlsym(RTLD_DEFAULT)`, so one binary built against
//! an old baseline uses what a newer libc offers. Static builds (`crt-static`, e.g. musl) have
//! no working `dlsym`; there `build.rs` link-probed each symbol against the real target libc
//! and set `cfg(spawnmatrix_static_has = "<symbol>")`, and present symbols are referenced
//! directly.
//!
//! ```
//! use spawnmatrix_spawn::sys::spawn_ext::{self, How};
//!
//! // posix_spawn itself is always there; how it was found depends on the build.
//! let found = spawn_ext::find_symbol("posix_spawn").expect("every libc has posix_spawn");
//! assert_eq!(found.how, How::for_this_build());
//! match spawn_ext::addchdir() {
//!     Some(f) => println!("chdir file action: {} ({})", f.name, f.how.as_str()),
//!     None => println!("this libc has no chdir file action"),
//! }
//! ```

use std::ffi::{c_char, c_int, c_void};

use libc::{posix_spawn_file_actions_t, posix_spawnattr_t};

// One resolver per linking mode.
#[cfg_attr(target_feature = "crt-static", path = "resolve_static.rs")]
#[cfg_attr(not(target_feature = "crt-static"), path = "resolve_dlsym.rs")]
mod resolve;

/// How a symbol was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// `dlsym(RTLD_DEFAULT, name)` in this process.
    Dlsym,
    /// Linked into this static binary, after a build-time link probe found it in the target
    /// libc.
    StaticLink,
}

impl How {
    /// How this build resolves symbols (and so how an absent one was found absent).
    pub const fn for_this_build() -> How {
        resolve::HOW
    }

    /// The word reports use: `dlsym` or `static-link`.
    pub const fn as_str(self) -> &'static str {
        match self {
            How::Dlsym => "dlsym",
            How::StaticLink => "static-link",
        }
    }
}

/// Why a static build cannot tell which symbols exist (its link probes did not work), if so.
pub fn unknown_reason() -> Option<&'static str> {
    resolve::UNKNOWN_REASON
}

/// A function this process can call: the symbol name that provided it and a typed pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found<F> {
    /// The symbol that was found (`posix_spawn_file_actions_addchdir_np`).
    pub name: &'static str,
    /// How it was found.
    pub how: How,
    /// The function, typed for its signature.
    pub func: F,
}

/// `posix_spawn_file_actions_add(f)chdir(_np)`-shaped: path argument.
pub type AddPathFn = unsafe extern "C" fn(*mut posix_spawn_file_actions_t, *const c_char) -> c_int;
/// `posix_spawn_file_actions_add*` with one fd argument (fchdir, closefrom, tcsetpgrp,
/// inherit).
pub type AddFdFn = unsafe extern "C" fn(*mut posix_spawn_file_actions_t, c_int) -> c_int;
/// `pidfd_spawn` / `pidfd_spawnp` (glibc 2.39): like `posix_spawn`, giving a pidfd.
pub type PidfdSpawnFn = unsafe extern "C" fn(
    *mut c_int,
    *const c_char,
    *const posix_spawn_file_actions_t,
    *const posix_spawnattr_t,
    *const *mut c_char,
    *const *mut c_char,
) -> c_int;
/// `posix_spawnattr_setcgroup_np` (glibc 2.39).
pub type SetCgroupFn = unsafe extern "C" fn(*mut posix_spawnattr_t, c_int) -> c_int;

/// The address of `name` (one of [`super::symbols::SPAWN_SYMBOLS`] or
/// [`super::symbols::LIBC_MARKERS`]), if this process has it.
pub fn find_symbol(name: &'static str) -> Option<Found<*mut c_void>> {
    resolve::find(name).map(|func| Found {
        name,
        how: resolve::HOW,
        func,
    })
}

/// Defines a cached lookup that tries symbol names in order and types the result.
macro_rules! lookup {
    ($(#[$doc:meta])* $fn_name:ident -> $ty:ty = [$($sym:literal),+ $(,)?]) => {
        $(#[$doc])*
        pub fn $fn_name() -> Option<Found<$ty>> {
            static CACHE: std::sync::OnceLock<Option<Found<$ty>>> = std::sync::OnceLock::new();
            *CACHE.get_or_init(|| {
                let found = [$($sym),+].into_iter().find_map(find_symbol)?;
                Some(Found {
                    name: found.name,
                    how: found.how,
                    // SAFETY: every libc that exports one of these names gives it this C
                    // signature (glibc, musl, Apple, FreeBSD and Cygwin headers agree).
                    func: unsafe { std::mem::transmute::<*mut c_void, $ty>(found.func) },
                })
            })
        }
    };
}

lookup! {
    /// `posix_spawn_file_actions_addchdir_np`, else its POSIX.1-2024 name `..._addchdir`.
    addchdir -> AddPathFn = [
        "posix_spawn_file_actions_addchdir_np",
        "posix_spawn_file_actions_addchdir",
    ]
}
lookup! {
    /// `posix_spawn_file_actions_addfchdir_np`, else its POSIX.1-2024 name `..._addfchdir`.
    addfchdir -> AddFdFn = [
        "posix_spawn_file_actions_addfchdir_np",
        "posix_spawn_file_actions_addfchdir",
    ]
}
lookup! {
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34, FreeBSD 14, illumos).
    addclosefrom -> AddFdFn = ["posix_spawn_file_actions_addclosefrom_np"]
}
lookup! {
    /// `posix_spawn_file_actions_addtcsetpgrp_np` (glibc 2.35).
    addtcsetpgrp -> AddFdFn = ["posix_spawn_file_actions_addtcsetpgrp_np"]
}
lookup! {
    /// `posix_spawn_file_actions_addinherit_np` (Apple).
    addinherit -> AddFdFn = ["posix_spawn_file_actions_addinherit_np"]
}
lookup! {
    /// `posix_spawnattr_setcgroup_np` (glibc 2.39).
    setcgroup -> SetCgroupFn = ["posix_spawnattr_setcgroup_np"]
}
lookup! {
    /// `pidfd_spawn` (glibc 2.39; fails with ENOSYS at run time on kernels without pidfd).
    pidfd_spawn -> PidfdSpawnFn = ["pidfd_spawn"]
}
lookup! {
    /// `pidfd_spawnp` (glibc 2.39).
    pidfd_spawnp -> PidfdSpawnFn = ["pidfd_spawnp"]
}

#[cfg(test)]
mod tests;
