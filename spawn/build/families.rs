//! Named groups of targets, as cfgs, so a module gate says what it means once instead of
//! repeating a list of operating systems: `spawnmatrix_kqueue` where kqueue has
//! `EVFILT_PROC` (Apple's systems and the BSDs).

use crate::target::Target;

/// The systems with kqueue and its `EVFILT_PROC` filter.
const KQUEUE: &[&str] = &[
    "macos",
    "ios",
    "tvos",
    "watchos",
    "visionos",
    "freebsd",
    "netbsd",
    "openbsd",
    "dragonfly",
];

pub fn declare(target: &Target) {
    println!("cargo::rustc-check-cfg=cfg(spawnmatrix_kqueue)");
    if KQUEUE.contains(&target.os.as_str()) {
        println!("cargo:rustc-cfg=spawnmatrix_kqueue");
    }
}
