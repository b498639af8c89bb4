//! `POSIX_SPAWN_*` flags: offered to `posix_spawnattr_setflags` on a fresh attribute object.

use std::mem::MaybeUninit;

use super::observed;
use super::Capability;
use crate::sys::errno;
use crate::sys::flags::{by_name, DeclaredBy, SpawnFlag, ALL};

pub(super) fn detect() -> Vec<(String, Capability)> {
    ALL.iter()
        .map(|&name| {
            let cap = match by_name(name) {
                Some(flag) => offer(flag),
                None => observed(false, "not-declared-for-target", None),
            };
            (name.to_string(), cap)
        })
        .collect()
}

pub(super) fn offer(flag: SpawnFlag) -> Capability {
    let origin = match flag.declared_by {
        DeclaredBy::LibcCrate => format!("value {:#x} from the libc crate", flag.value),
        DeclaredBy::ThisCrate { source } => format!("value {:#x} from {source}", flag.value),
    };
    match setflags(flag.value) {
        Offer::Init(e) => observed(
            false,
            "setflags-untested",
            Some(format!("posix_spawnattr_init failed: {}", errno::name(e))),
        ),
        Offer::SetFlags { rc, destroy } => {
            let note = match destroy {
                0 => origin,
                e => format!(
                    "{origin}; posix_spawnattr_destroy failed: {}",
                    errno::name(e)
                ),
            };
            match rc {
                0 => observed(true, "setflags-accepted", Some(note)),
                e => observed(false, format!("setflags-{}", errno::name(e)), Some(note)),
            }
        }
    }
}

/// What the libc answered, as returned error numbers (0 = success).
enum Offer {
    Init(i32),
    SetFlags { rc: i32, destroy: i32 },
}

fn setflags(value: libc::c_short) -> Offer {
    let mut attr = MaybeUninit::<libc::posix_spawnattr_t>::uninit();
    // SAFETY: the attribute object is initialised before use and destroyed once after.
    unsafe {
        let rc = crate::sys::spawn_fns::posix_spawnattr_init(attr.as_mut_ptr());
        if rc != 0 {
            return Offer::Init(rc);
        }
        let rc = crate::sys::spawn_fns::posix_spawnattr_setflags(attr.as_mut_ptr(), value);
        let destroy = crate::sys::spawn_fns::posix_spawnattr_destroy(attr.as_mut_ptr());
        Offer::SetFlags { rc, destroy }
    }
}
