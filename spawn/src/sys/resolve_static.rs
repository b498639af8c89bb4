//! Static builds: `dlsym` does not work, so `build.rs` link-probed each symbol against the
//! target libc; present ones are referenced directly here and linked in.

use std::ffi::c_void;

use super::How;

pub(super) const HOW: How = How::StaticLink;

#[cfg(not(spawnmatrix_link_probe_failed))]
pub(super) const UNKNOWN_REASON: Option<&str> = None;
#[cfg(spawnmatrix_link_probe_failed)]
pub(super) const UNKNOWN_REASON: Option<&str> = Some(
    "the build-time link probe could not link even posix_spawn for this target, so every \
     newer symbol is treated as absent",
);

/// Generates a function returning (name, address) for each symbol the build-time probe found.
macro_rules! linked {
    ($($name:literal),* $(,)?) => {
        pub(super) fn linked() -> Vec<(&'static str, *mut c_void)> {
            #[allow(unused_mut)]
            let mut found = Vec::new();
            $(
                #[cfg(spawnmatrix_static_has = $name)]
                found.push(($name, {
                    extern "C" {
                        #[link_name = $name]
                        fn symbol();
                    }
                    symbol as unsafe extern "C" fn() as *mut c_void
                }));
            )*
            found
        }
    };
}

mod spawn {
    use std::ffi::c_void;
    crate::sys::symbols::with_spawn_symbols!(linked);
}
mod markers {
    use std::ffi::c_void;
    crate::sys::symbols::with_libc_markers!(linked);
}

pub(super) fn find(name: &str) -> Option<*mut c_void> {
    spawn::linked()
        .into_iter()
        .chain(markers::linked())
        .find(|(n, _)| *n == name)
        .map(|(_, p)| p)
}
