//! Spawn functions: present or not, through `crate::sys::spawn_ext`.

use super::observed;
use super::Capability;
use crate::sys::spawn_ext::{find_symbol, unknown_reason, How};
use crate::sys::symbols::SPAWN_SYMBOLS;

pub(super) fn detect() -> Vec<(String, Capability)> {
    SPAWN_SYMBOLS
        .iter()
        .map(|&name| (name.to_string(), one(name)))
        .collect()
}

fn one(name: &'static str) -> Capability {
    if let Some(found) = find_symbol(name) {
        return observed(true, found.how.as_str(), note(name));
    }
    match unknown_reason() {
        Some(why) => observed(false, "static-link-unprobed", Some(why.to_string())),
        None => {
            let how = How::for_this_build();
            let note = (how == How::StaticLink)
                .then(|| "the target libc did not link it at build time".to_string());
            observed(false, how.as_str(), note)
        }
    }
}

/// What presence alone does not tell.
fn note(name: &str) -> Option<String> {
    match name {
        "pidfd_spawn" | "pidfd_spawnp" => {
            Some("fails with ENOSYS at run time if the kernel lacks pidfd support".to_string())
        }
        "posix_spawnattr_setcgroup_np" => {
            Some("POSIX_SPAWN_SETCGROUP then needs clone3 with CLONE_INTO_CGROUP".to_string())
        }
        _ => None,
    }
}
