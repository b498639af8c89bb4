//! musl: the `_np` chdir actions exist since 1.1.24 and the libc crate declares them, and a
//! static binary has no `dlsym`, so they are linked. musl has no `addclosefrom_np`.

use super::Extensions;

pub fn extensions() -> Extensions {
    Extensions {
        addchdir: Some(libc::posix_spawn_file_actions_addchdir_np),
        addfchdir: Some(libc::posix_spawn_file_actions_addfchdir_np),
        addclosefrom: None,
        setsid_flag: Some(libc::POSIX_SPAWN_SETSID),
    }
}
