//! Looking the chdir file actions up with `dlsym`, once per process.

use std::ffi::CStr;
use std::sync::OnceLock;

use super::{AddChdir, AddFchdir};

/// The `_np` name first (glibc 2.29+, musl, macOS 10.15+, FreeBSD 14+), then the POSIX.1-2024
/// name (NetBSD 10, Cygwin 3.6, macOS 26).
const CHDIR: [&CStr; 2] = [
    c"posix_spawn_file_actions_addchdir_np",
    c"posix_spawn_file_actions_addchdir",
];
const FCHDIR: [&CStr; 2] = [
    c"posix_spawn_file_actions_addfchdir_np",
    c"posix_spawn_file_actions_addfchdir",
];

/// The first of `names` the process has, as an address.
fn lookup(names: &[&CStr]) -> Option<usize> {
    names.iter().find_map(|n| {
        // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name.
        let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, n.as_ptr()) };
        (!p.is_null()).then_some(p as usize)
    })
}

/// `addchdir`, if this libc has it.
pub(in crate::spawn::posix) fn addchdir() -> Option<AddChdir> {
    static F: OnceLock<Option<usize>> = OnceLock::new();
    // SAFETY: the symbol has this signature in every libc that exports either name.
    F.get_or_init(|| lookup(&CHDIR))
        .map(|a| unsafe { std::mem::transmute::<usize, AddChdir>(a) })
}

/// `addfchdir`, if this libc has it.
pub(in crate::spawn::posix) fn addfchdir() -> Option<AddFchdir> {
    static F: OnceLock<Option<usize>> = OnceLock::new();
    // SAFETY: as for `addchdir`.
    F.get_or_init(|| lookup(&FCHDIR))
        .map(|a| unsafe { std::mem::transmute::<usize, AddFchdir>(a) })
}
