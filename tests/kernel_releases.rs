//! The running kernel has exactly the features its release should have, by the first
//! releases of `targets/linux-kernel/kernel.yaml`: a feature documented as older than this
//! kernel must be available, one documented as newer must be absent. A documented date that
//! a run contradicts fails here, on the build machine and in every kernel guest
//! (`ci/emulate.sh linux-5.10 ...`), instead of going into the table unnoticed.
//!
//! Answers that say nothing about the kernel (a probe refused by a seccomp filter, one that
//! could not be made or that failed for want of resources) are skipped, each with a printed
//! reason. A kernel that backports a feature to an older release would fail here too, which
//! is right: the table's date would then need a note.

#![cfg(target_os = "linux")]

use std::path::Path;

use spawnmatrix::caps::{self, PROBE_FAILED, REFUSED, UNPROBED};
use spawnmatrix::matrix::version::Version;
use spawnmatrix::published::kernel::Kernel;

/// This kernel's release (`uname -r`: `5.10.0-32-cloud-amd64` → 5.10.0).
fn running_release() -> (String, Version) {
    // SAFETY: uname fills the zeroed struct, which outlives the call.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    assert_eq!(unsafe { libc::uname(&mut u) }, 0, "uname failed");
    // SAFETY: the kernel NUL-terminates the release.
    let text = unsafe { std::ffi::CStr::from_ptr(u.release.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    let numeric: String = text
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()
        .unwrap_or("")
        .trim_end_matches('.')
        .to_string();
    let v = Version::parse(&numeric).unwrap_or_else(|| panic!("uname release {text:?}"));
    (text, v)
}

#[test]
fn this_kernel_has_what_its_release_should() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let kernel = Kernel::load(&targets)
        .expect("kernel.yaml loads")
        .expect("targets/linux-kernel/kernel.yaml exists");
    let (text, running) = running_release();
    let found = caps::detect();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (name, since) in kernel.features() {
        let Some(since) = since else {
            println!("skip {name}: kernel.yaml names no first release");
            continue;
        };
        let Some(cap) = found.get(name) else {
            println!("skip {name}: caps::detect() does not probe it");
            continue;
        };
        if [UNPROBED, REFUSED, PROBE_FAILED].contains(&cap.how.as_str()) {
            println!(
                "skip {name}: {} ({:?}) says nothing about the kernel",
                cap.how, cap.note
            );
            continue;
        }
        let first = Version::parse(since).expect("kernel.yaml's releases parse");
        let expected = first <= running;
        checked += 1;
        println!(
            "{name}: documented since {since}, {text} {} it ({})",
            if cap.available { "has" } else { "lacks" },
            cap.note.as_deref().unwrap_or(&cap.how)
        );
        if cap.available != expected {
            wrong.push(format!(
                "{name}: documented since {since}, but {text} {} it: {cap:?}",
                if cap.available { "has" } else { "lacks" }
            ));
        }
    }
    assert!(checked > 0, "no kernel feature could be checked on {text}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
