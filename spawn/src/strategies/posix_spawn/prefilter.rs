//! PATH search without a process per miss. `posix_spawn` learns that a candidate does not
//! exist only by creating a child whose `execve` fails (a real process on FreeBSD, macOS and
//! glibc), so a program found in the third `PATH` entry costs three process creations. A
//! candidate the parent can see does not exist is skipped with the errno `execve` would give,
//! and the `execvp` rule (`search::SearchState`) still decides the final answer from it.
//!
//! Only `ENOENT` and `ENOTDIR` are taken from the parent's check: they mean a path component
//! is absent, which is the same for any credentials (whatever the parent could not search
//! answers `EACCES`, and then the child tries for itself). A relative candidate is checked
//! only when the child runs in the parent's directory.

use std::ffi::{c_char, CStr};

/// The errno the child's `execve` of `path` would certainly fail with, if the parent can
/// tell: `ENOENT` or `ENOTDIR`. `child_chdirs`: the child changes directory first.
pub(super) fn certain_failure(path: &CStr, child_chdirs: bool) -> Option<libc::c_int> {
    if child_chdirs && !path.to_bytes().starts_with(b"/") {
        return None;
    }
    // SAFETY: a NUL-terminated path; F_OK asks for existence only.
    let rc = unsafe { libc::faccessat(libc::AT_FDCWD, path.as_ptr(), libc::F_OK, 0) };
    if rc == 0 {
        return None;
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(e @ (libc::ENOENT | libc::ENOTDIR)) => Some(e),
        _ => None,
    }
}

/// [`certain_failure`] for a candidate pointer of a prepared request.
///
/// # Safety
/// `path` points to a NUL-terminated string that outlives the call.
pub(super) unsafe fn certain_failure_at(path: *const c_char, child_chdirs: bool) -> Option<libc::c_int> {
    // SAFETY: the caller's promise.
    certain_failure(unsafe { CStr::from_ptr(path) }, child_chdirs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(c"/nonexistent-spawnmatrix/x", false, Some(libc::ENOENT))]
    #[case(c"/dev/null/x", false, Some(libc::ENOTDIR))]
    #[case(c"/bin/sh", false, None)]
    // Relative, and the child changes directory: only the child can tell.
    #[case(c"nonexistent-spawnmatrix", true, None)]
    #[case(c"nonexistent-spawnmatrix", false, Some(libc::ENOENT))]
    // Absolute paths do not depend on the child's directory.
    #[case(c"/nonexistent-spawnmatrix/x", true, Some(libc::ENOENT))]
    fn only_certain_misses_are_skipped(
        #[case] path: &CStr,
        #[case] chdirs: bool,
        #[case] want: Option<libc::c_int>,
    ) {
        assert_eq!(certain_failure(path, chdirs), want);
    }
}
