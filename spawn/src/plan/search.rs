//! Program lookup: the candidate paths a bare program name expands to, in `PATH` order, built
//! in the parent. The rule for going on after a failed one is the child's
//! (`child_side/search.rs`).

use std::ffi::{CStr, CString, OsStr};
use std::os::unix::ffi::OsStrExt;

use crate::platform::default_path;

/// The longest file name `execvp` accepts (`NAME_MAX`); a longer one is left to `execve` to
/// refuse with `ENAMETOOLONG`.
const NAME_MAX: usize = 255;

/// The paths to try for `program`, in order. A program containing `/` is its only candidate;
/// a bare name is joined to each `PATH` entry (an empty entry means `.`). As in `execvp`, an
/// entry too long to make a path shorter than `PATH_MAX` with the name is skipped, so it
/// cannot end the search with `ENAMETOOLONG`.
pub(crate) fn candidates(program: &CStr, path: Option<&OsStr>) -> Vec<CString> {
    let prog = program.to_bytes();
    if prog.contains(&b'/') {
        return vec![program.to_owned()];
    }
    let path = path.map_or(default_path(), |p| p.as_bytes());
    let path_max = usize::try_from(libc::PATH_MAX).unwrap_or(usize::MAX);
    path.split(|&b| b == b':')
        .filter(|dir| prog.len() > NAME_MAX || dir.len() + 1 + prog.len() < path_max)
        .map(|dir| {
            let dir: &[u8] = if dir.is_empty() { b"." } else { dir };
            let mut full = Vec::with_capacity(dir.len() + 1 + prog.len() + 1);
            full.extend_from_slice(dir);
            if !dir.ends_with(b"/") {
                full.push(b'/');
            }
            full.extend_from_slice(prog);
            // Neither part holds a NUL: `program` is a CStr and `path` came from an
            // environment string that was checked (or from the process environment).
            CString::new(full).unwrap_or_default()
        })
        .filter(|c| !c.as_bytes().is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("ls", Some("/usr/bin:/bin"), &["/usr/bin/ls", "/bin/ls"])]
    #[case("ls", Some(""), &["./ls"])]
    #[case("ls", Some("a::/b/"), &["a/ls", "./ls", "/b/ls"])]
    #[case("./ls", Some("/bin"), &["./ls"])]
    #[case("sub/ls", Some("/bin"), &["sub/ls"])]
    // Leaked: before Rust 1.89 a `format!` temporary in a case ends before the test body.
    #[case("ls", Some(&*String::leak(format!("/{}:/bin", "x".repeat(5000)))), &["/bin/ls"])]
    fn candidates_follow_path(
        #[case] prog: &str,
        #[case] path: Option<&str>,
        #[case] want: &[&str],
    ) {
        let prog = CString::new(prog).unwrap();
        let got = candidates(&prog, path.map(OsStr::new));
        let got: Vec<&str> = got.iter().map(|c| c.to_str().unwrap()).collect();
        assert_eq!(got, want);
    }

    /// With no `PATH`, the libc's `execvp` default, as `std` gets it (glibc `CS_PATH`, musl's
    /// `execvp`, the BSDs' `_PATH_DEFPATH`).
    #[rstest]
    fn no_path_searches_the_libcs_execvp_default() {
        let got = candidates(c"ls", None);
        let got: Vec<&str> = got.iter().map(|c| c.to_str().unwrap()).collect();
        let want: &[&str] = if cfg!(target_env = "musl") {
            &["/usr/local/bin/ls", "/bin/ls", "/usr/bin/ls"]
        } else if cfg!(any(target_vendor = "apple", target_os = "freebsd")) {
            &["/usr/bin/ls", "/bin/ls"]
        } else {
            &["/bin/ls", "/usr/bin/ls"]
        };
        assert_eq!(got, want);
    }
}
