//! musl is linked statically (dlsym finds nothing) and has had the function since 1.1.24,
//! older than any musl Rust supports: link it directly.

use super::AddFchdir;

pub fn resolve() -> Option<AddFchdir> {
    Some(libc::posix_spawn_file_actions_addfchdir_np)
}
