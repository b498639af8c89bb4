//! Symbolic errno names, so reports say `ENOENT` rather than a number that differs by platform.

/// The errno values the spawn family can produce, by name. Platform-specific aliases (such as
/// `EWOULDBLOCK` = `EAGAIN`) are listed after their primary name so lookups by number find the
/// primary.
const TABLE: &[(&str, i32)] = &[
    ("EPERM", libc::EPERM),
    ("ENOENT", libc::ENOENT),
    ("ESRCH", libc::ESRCH),
    ("EINTR", libc::EINTR),
    ("EIO", libc::EIO),
    ("ENXIO", libc::ENXIO),
    ("E2BIG", libc::E2BIG),
    ("ENOEXEC", libc::ENOEXEC),
    ("EBADF", libc::EBADF),
    ("ECHILD", libc::ECHILD),
    ("EAGAIN", libc::EAGAIN),
    ("ENOMEM", libc::ENOMEM),
    ("EACCES", libc::EACCES),
    ("EFAULT", libc::EFAULT),
    ("EBUSY", libc::EBUSY),
    ("EEXIST", libc::EEXIST),
    ("EXDEV", libc::EXDEV),
    ("ENODEV", libc::ENODEV),
    ("ENOTDIR", libc::ENOTDIR),
    ("EISDIR", libc::EISDIR),
    ("EINVAL", libc::EINVAL),
    ("ENFILE", libc::ENFILE),
    ("EMFILE", libc::EMFILE),
    ("ENOTTY", libc::ENOTTY),
    ("ETXTBSY", libc::ETXTBSY),
    ("EFBIG", libc::EFBIG),
    ("ENOSPC", libc::ENOSPC),
    ("ESPIPE", libc::ESPIPE),
    ("EROFS", libc::EROFS),
    ("EMLINK", libc::EMLINK),
    ("EPIPE", libc::EPIPE),
    ("ERANGE", libc::ERANGE),
    ("ENAMETOOLONG", libc::ENAMETOOLONG),
    ("ENOSYS", libc::ENOSYS),
    ("ELOOP", libc::ELOOP),
    ("ENOTSUP", libc::ENOTSUP),
    ("EOPNOTSUPP", libc::EOPNOTSUPP),
];

/// The symbolic name of `errno`, or `E<number>` for a value this table does not know.
///
/// ```
/// use spawnmatrix_spawn::sys::errno;
///
/// assert_eq!(errno::name(libc::ENOENT), "ENOENT");
/// assert_eq!(errno::number("EBADF"), Some(libc::EBADF));
/// ```
pub fn name(errno: i32) -> String {
    TABLE
        .iter()
        .find(|(_, v)| *v == errno)
        .map(|(n, _)| (*n).to_string())
        .unwrap_or_else(|| format!("E{errno}"))
}

/// The number for a symbolic name on this platform; `None` for an unknown name.
pub fn number(name: &str) -> Option<i32> {
    TABLE.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    #[rstest]
    #[case(libc::ENOENT, "ENOENT")]
    #[case(libc::EBADF, "EBADF")]
    #[case(libc::ENOEXEC, "ENOEXEC")]
    #[case(9999, "E9999")]
    fn names(#[case] errno: i32, #[case] expected: &str) {
        assert_eq!(super::name(errno), expected);
    }

    #[rstest]
    #[case("EACCES", Some(libc::EACCES))]
    #[case("ENOTANERRNO", None)]
    fn numbers(#[case] name: &str, #[case] expected: Option<i32>) {
        assert_eq!(super::number(name), expected);
    }
}
