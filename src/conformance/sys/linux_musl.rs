//! musl: linked statically by Rust's musl target, where `dlsym` finds nothing, so the `_np`
//! chdir actions (musl 1.1.24+) are linked directly. musl has no `addclosefrom_np` and no
//! POSIX-named chdir actions; musl has no version API, so the version stays unknown.

use super::{Ext, LibcId};

pub fn ext() -> Ext {
    Ext {
        addchdir_np: Some(libc::posix_spawn_file_actions_addchdir_np),
        addfchdir_np: Some(libc::posix_spawn_file_actions_addfchdir_np),
        ..Ext::by_dlsym()
    }
}

pub fn libc_identity() -> LibcId {
    LibcId {
        name: "musl",
        version: None,
        family: "linux-musl",
    }
}
