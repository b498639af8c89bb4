//! Turning OS strings into C strings, rejecting NUL bytes with an error that names the string.

use std::ffi::{CString, OsStr};
use std::io;
use std::os::unix::ffi::OsStrExt;

use crate::request::InputError;

/// An error naming `what` (built only on error) if `s` holds a NUL byte.
pub(crate) fn no_nul(s: &[u8], what: impl FnOnce() -> String) -> io::Result<()> {
    match s.contains(&0) {
        true => Err(InputError::Nul { what: what() }.into()),
        false => Ok(()),
    }
}

/// `s` as a C string; a NUL byte is `InvalidInput` naming `what` (built only on error).
pub(crate) fn c_string(s: &OsStr, what: impl FnOnce() -> String) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| InputError::Nul { what: what() }.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"abc".as_slice(), None)]
    #[case(b"".as_slice(), None)]
    #[case(b"a\0b".as_slice(), Some("nul byte found in argument 1"))]
    #[case(b"\0".as_slice(), Some("nul byte found in argument 1"))]
    fn nul_bytes_are_named(#[case] input: &[u8], #[case] err: Option<&str>) {
        let r = c_string(OsStr::from_bytes(input), || "argument 1".into());
        match err {
            None => assert_eq!(r.unwrap().as_bytes(), input),
            Some(msg) => {
                let e = r.unwrap_err();
                assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
                assert_eq!(e.to_string(), msg);
            }
        }
    }
}
