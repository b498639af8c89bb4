//! Static musl: `dlsym` cannot find anything, and the bundled musl (1.1.24+) has both chdir
//! actions, so they are linked directly.

use super::{AddChdir, AddFchdir};

/// `addchdir`: always present in musl 1.1.24 and later.
pub(in crate::spawn::posix) fn addchdir() -> Option<AddChdir> {
    Some(libc::posix_spawn_file_actions_addchdir_np)
}

/// `addfchdir`: always present in musl 1.1.24 and later.
pub(in crate::spawn::posix) fn addfchdir() -> Option<AddFchdir> {
    Some(libc::posix_spawn_file_actions_addfchdir_np)
}
