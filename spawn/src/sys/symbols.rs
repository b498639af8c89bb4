//! The libc symbols this crate looks for, in one place: `build.rs` includes this file to
//! link-probe each one for static targets, and the static resolver expands the same lists.

/// Calls macro `$callback` with every symbol name as a string literal, oldest first.
/// `posix_spawn` is the baseline: if a link probe cannot find it, the probe does not work.
macro_rules! with_spawn_symbols {
    ($callback:ident) => {
        $callback! {
            "posix_spawn",
            "posix_spawnp",
            "posix_spawn_file_actions_addchdir_np",
            "posix_spawn_file_actions_addfchdir_np",
            "posix_spawn_file_actions_addchdir",
            "posix_spawn_file_actions_addfchdir",
            "posix_spawn_file_actions_addclosefrom_np",
            "posix_spawn_file_actions_addtcsetpgrp_np",
            "posix_spawn_file_actions_addinherit_np",
            "posix_spawnattr_setcgroup_np",
            "pidfd_spawn",
            "pidfd_spawnp",
        }
    };
}
#[allow(unused_imports)] // Only the static resolver uses it; build.rs uses the slice.
pub(crate) use with_spawn_symbols;

/// Calls macro `$callback` with symbols that tell libc versions apart where the libc has no
/// version API (musl): each was added in a known release (musl WHATSNEW and source tags).
macro_rules! with_libc_markers {
    ($callback:ident) => {
        $callback! {
            "statx",
            "qsort_r",
            "_Fork",
        }
    };
}
#[allow(unused_imports)]
pub(crate) use with_libc_markers;

macro_rules! spawn_slice {
    ($($name:literal),* $(,)?) => {
        /// Every spawn symbol the spawn_ext module can resolve, oldest first.
        pub const SPAWN_SYMBOLS: &[&str] = &[$($name),*];
    };
}
with_spawn_symbols!(spawn_slice);

macro_rules! marker_slice {
    ($($name:literal),* $(,)?) => {
        /// Version-marker symbols (see `with_libc_markers`).
        pub const LIBC_MARKERS: &[&str] = &[$($name),*];
    };
}
with_libc_markers!(marker_slice);
