//! glibc: the `_np` file actions arrived in 2.29 (chdir) and 2.34 (closefrom), so they are
//! looked up at run time.

use super::{dl, Extensions};

pub fn extensions() -> Extensions {
    Extensions {
        addchdir: dl::add_chdir(c"posix_spawn_file_actions_addchdir_np"),
        addfchdir: dl::add_fd(c"posix_spawn_file_actions_addfchdir_np"),
        addclosefrom: dl::add_fd(c"posix_spawn_file_actions_addclosefrom_np"),
        setsid_flag: Some(libc::POSIX_SPAWN_SETSID),
    }
}
