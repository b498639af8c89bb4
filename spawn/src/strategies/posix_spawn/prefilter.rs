//! PATH search without a process per miss. `posix_spawn` learns that a candidate does not
//! exist only by creating a child whose `execve` fails (a real process on FreeBSD, macOS and
//! glibc), so a program found in the third `PATH` entry costs three process creations. A
//! candidate the parent can see does not exist is skipped with the errno `execve` would give,
//! and the `execvp` rule (`search::SearchState`) still decides the final answer from it.
//!
//! Only `ENOENT` and `ENOTDIR` are taken from the parent's check: they mean a path component
//! is absent, which is the same for any credentials (whatever the parent could not search
//! answers `EACCES`, and then the child tries for itself). A relative candidate is checked
//! only when the child runs in the parent's directory. The last candidate is always tried
//! with a real spawn, and none is skipped when the child's change of directory will fail:
//! the child's own setup (its `setpgid`, `chdir`, ...) runs before any `execve`, and its
//! error, not the search's `ENOENT`, is what the other strategies report.

use std::ffi::{c_char, CStr};
use std::os::fd::RawFd;

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

/// The errno the child's change of directory will certainly fail with, if the parent can
/// tell: the directory (by path or fd) is missing (`ENOENT`) or not a directory (`ENOTDIR`),
/// the same for any credentials. Then the child fails before its first `execve`, and every
/// other strategy reports that error, so no candidate may be skipped and the first spawn's
/// error is the answer (the search would take a `chdir`'s `ENOENT` or `ENOTDIR` for a
/// missing candidate and go on).
pub(super) fn chdir_certainly_fails(path: Option<&CStr>, fd: Option<RawFd>) -> Option<libc::c_int> {
    // SAFETY: an all-zero stat is valid; fstat/stat fill it on success.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path or an fd number, and a struct to fill.
    let rc = unsafe {
        match (path, fd) {
            (Some(p), _) => libc::stat(p.as_ptr(), &mut st),
            (None, Some(fd)) => libc::fstat(fd, &mut st),
            (None, None) => return None,
        }
    };
    if rc != 0 {
        return match std::io::Error::last_os_error().raw_os_error() {
            Some(e @ (libc::ENOENT | libc::ENOTDIR)) => Some(e),
            _ => None,
        };
    }
    (st.st_mode & libc::S_IFMT != libc::S_IFDIR).then_some(libc::ENOTDIR)
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

    #[rstest]
    #[case(Some(c"/"), None)]
    #[case(Some(c"/dev/null"), Some(libc::ENOTDIR))]
    #[case(Some(c"/nonexistent-spawnmatrix"), Some(libc::ENOENT))]
    #[case(Some(c"/dev/null/x"), Some(libc::ENOTDIR))]
    #[case(None, None)]
    fn a_directory_that_cannot_be_entered_is_known(
        #[case] path: Option<&CStr>,
        #[case] want: Option<libc::c_int>,
    ) {
        assert_eq!(chdir_certainly_fails(path, None), want);
    }
}
