//! The running glibc's version, for the two spawn paths older releases get wrong:
//! - before 2.25 the `clone` wrapper's child writes the PID/TID cache in the thread control
//!   block it runs on; with `CLONE_VM` that is the *parent* thread's (glibc BZ #19957), so
//!   `clone_vfork` would corrupt the parent;
//! - before 2.24 `posix_spawn` reports a failed `execve` as a child that exits 127 instead of
//!   an error (the rewrite on `CLONE_VM|CLONE_VFORK` in 2.24 made it report the errno).

use std::ffi::CStr;
use std::sync::OnceLock;

/// `major.minor` of a `gnu_get_libc_version()` string ("2.36", "2.17", "2.41.9000").
fn parse(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// Whether `version` is older than `major.minor`; an unreadable version counts as old, so the
/// safe path is taken.
fn is_older(version: &str, major: u32, minor: u32) -> bool {
    match parse(version) {
        Some(v) => v < (major, minor),
        None => true,
    }
}

/// Whether the glibc this process runs on is older than `major.minor`.
pub(crate) fn older_than(major: u32, minor: u32) -> bool {
    static VERSION: OnceLock<String> = OnceLock::new();
    let version = VERSION.get_or_init(|| {
        // SAFETY: gnu_get_libc_version returns a static NUL-terminated string.
        unsafe { CStr::from_ptr(libc::gnu_get_libc_version()) }
            .to_string_lossy()
            .into_owned()
    });
    is_older(version, major, minor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("2.17", 2, 25, true)]
    #[case("2.24", 2, 25, true)]
    #[case("2.25", 2, 25, false)]
    #[case("2.36", 2, 24, false)]
    #[case("2.23", 2, 24, true)]
    #[case("2.41.9000", 2, 25, false)]
    #[case("3.0", 2, 25, false)]
    #[case("garbage", 2, 25, true)]
    fn version_comparison(
        #[case] v: &str,
        #[case] major: u32,
        #[case] minor: u32,
        #[case] older: bool,
    ) {
        assert_eq!(is_older(v, major, minor), older);
    }

    #[rstest]
    fn this_glibc_is_read() {
        // The build machine's glibc (2.36) needs neither workaround.
        assert!(!older_than(2, 17));
    }
}
