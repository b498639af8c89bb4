//! The environment the child receives, and the `PATH` its program is searched in.

use std::collections::BTreeMap;
use std::ffi::{c_char, CString, OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;

use super::cstr::c_bytes;

/// Changes to the parent's environment requested on a `Command`.
#[derive(Clone, Debug, Default)]
pub(super) struct EnvChanges {
    /// Start from an empty environment instead of the parent's.
    pub clear: bool,
    /// `Some(value)` sets, `None` removes.
    pub vars: BTreeMap<OsString, Option<OsString>>,
}

/// The environment of one spawn: `KEY=VALUE` strings and the null-terminated pointer array,
/// owned by the spawn. Never the live `environ` array: a safe `std::env::set_var` in another
/// thread may `realloc` that array while the child still reads it (std avoids this by holding
/// its environment lock over the spawn; this crate cannot take that lock, so it copies under it).
pub(super) struct Envp {
    _strings: Vec<CString>,
    ptrs: Vec<*const c_char>,
}

impl Envp {
    /// The `envp` argument for `execve`.
    pub(super) fn as_ptr(&self) -> *const *const c_char {
        self.ptrs.as_ptr()
    }
}

impl EnvChanges {
    /// The child's environment and, if `want_path`, its `PATH` (`None`: it has none). The
    /// parent's environment is copied with `std::env::vars_os`, under std's environment lock,
    /// so the child's `envp` and the `PATH` searched come from one consistent snapshot.
    pub(super) fn build(&self, want_path: bool) -> io::Result<(Envp, Option<OsString>)> {
        let mut all: BTreeMap<OsString, OsString> = if self.clear {
            BTreeMap::new()
        } else {
            std::env::vars_os().collect()
        };
        for (k, v) in &self.vars {
            match v {
                Some(v) => all.insert(k.clone(), v.clone()),
                None => all.remove(k),
            };
        }
        let mut strings = Vec::with_capacity(all.len());
        for (k, v) in &all {
            strings.push(key_value(k, v)?);
        }
        let mut ptrs: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr()).collect();
        ptrs.push(std::ptr::null());
        let path = want_path.then(|| all.remove(OsStr::new("PATH"))).flatten();
        Ok((
            Envp {
                _strings: strings,
                ptrs,
            },
            path,
        ))
    }
}

/// `KEY=VALUE` as a C string; a NUL byte is an error naming the key.
fn key_value(k: &OsStr, v: &OsStr) -> io::Result<CString> {
    let mut bytes = Vec::with_capacity(k.len() + v.len() + 2);
    bytes.extend_from_slice(k.as_bytes());
    bytes.push(b'=');
    bytes.extend_from_slice(v.as_bytes());
    c_bytes(bytes, || {
        if k.as_bytes().contains(&0) {
            format!("environment variable name {k:?}")
        } else {
            format!("the value of environment variable {k:?}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn changes(clear: bool, vars: &[(&str, Option<&str>)]) -> EnvChanges {
        EnvChanges {
            clear,
            vars: vars
                .iter()
                .map(|(k, v)| (k.into(), v.map(Into::into)))
                .collect(),
        }
    }

    #[rstest]
    #[case(changes(true, &[("A", Some("1"))]), &["A=1"], None)]
    #[case(changes(true, &[("PATH", Some("/x")), ("B", None)]), &["PATH=/x"], Some("/x"))]
    #[case(changes(true, &[]), &[], None)]
    fn built_environment(#[case] c: EnvChanges, #[case] want: &[&str], #[case] path: Option<&str>) {
        let (envp, got_path) = c.build(true).unwrap();
        let Envp { _strings, ptrs } = envp;
        let got: Vec<&str> = _strings.iter().map(|s| s.to_str().unwrap()).collect();
        assert_eq!(got, want);
        assert_eq!(ptrs.len(), want.len() + 1);
        assert_eq!(got_path.as_deref(), path.map(OsStr::new));
    }

    #[rstest]
    #[case("A\0B", "1", "environment variable name")]
    #[case("A", "1\x002", "the value of environment variable \"A\"")]
    fn nul_in_environment_is_named(#[case] k: &str, #[case] v: &str, #[case] msg: &str) {
        let e = match changes(true, &[(k, Some(v))]).build(true) {
            Err(e) => e,
            Ok(_) => panic!("a NUL byte must be rejected"),
        };
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains(msg), "{e}");
    }
}
