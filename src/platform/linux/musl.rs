//! musl has no version API, so the version is inferred from what the library provides.
//!
//! Each marker was added in a known release (musl WHATSNEW, checked against the source at the
//! release tags): `statx` in 1.2.5; `sysconf(_SC_MINSIGSTKSZ)` answers from 1.2.4 (earlier
//! releases say EINVAL); `qsort_r` in 1.2.3; `_Fork` in 1.2.2;
//! `posix_spawn_file_actions_addchdir_np` in 1.1.24. Symbols are found the way
//! `sys::spawn_ext` finds them (link probe in static builds, `dlsym` in dynamic ones).

use crate::report::Libc;
use crate::sys::spawn_ext::{find_symbol, How};

/// (lower bound, evidence) pairs, newest first; the first one that holds is reported.
fn markers() -> [(&'static str, &'static str, bool); 5] {
    let has = |name: &'static str| find_symbol(name).is_some();
    [
        (">=1.2.5", "has statx", has("statx")),
        (
            ">=1.2.4",
            "sysconf(_SC_MINSIGSTKSZ) answers",
            minsigstksz_answers(),
        ),
        (">=1.2.3", "has qsort_r", has("qsort_r")),
        (">=1.2.2", "has _Fork", has("_Fork")),
        (
            ">=1.1.24",
            "has posix_spawn_file_actions_addchdir_np",
            has("posix_spawn_file_actions_addchdir_np"),
        ),
    ]
}

fn minsigstksz_answers() -> bool {
    // SAFETY: sysconf only reads its argument.
    unsafe { libc::sysconf(crate::sys::musl::_SC_MINSIGSTKSZ) > 0 }
}

pub(super) fn libc() -> Libc {
    let how = match How::for_this_build() {
        How::StaticLink => "linked statically; symbols from a build-time link probe",
        How::Dlsym => "symbols found with dlsym",
    };
    let (version, evidence) = match markers().into_iter().find(|(_, _, holds)| *holds) {
        Some((version, evidence, _)) => (Some(version.to_string()), evidence.to_string()),
        None => (None, "older than 1.1.24: none of the markers".to_string()),
    };
    Libc {
        name: "musl".to_string(),
        version,
        detail: Some(format!("no version API; inferred: {evidence} ({how})")),
    }
}
