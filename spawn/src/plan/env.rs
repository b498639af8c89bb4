//! The environment the child receives, and the `PATH` its program is searched in, built from
//! the request's [`EnvChanges`].

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;

use super::cstr::no_nul;
use super::cstr_array::{Builder, CStrArray};
use crate::request::EnvChanges;

impl EnvChanges {
    /// The child's environment and, if `want_path`, its `PATH` (`None`: it has none). Never
    /// the live `environ` array: a safe `std::env::set_var` in another thread may `realloc`
    /// it while the child still reads it (std holds its environment lock over the spawn; this
    /// crate cannot take that lock, so it copies under it). The
    /// parent's environment is copied with `std::env::vars_os`, under std's environment lock,
    /// so the child's `envp` and the `PATH` searched come from one consistent snapshot; that
    /// copy (two allocations per variable, inside std) is the one cost this crate pays over
    /// std, which can hold its lock over the spawn and hand over `environ` itself.
    pub(crate) fn build(&self, want_path: bool) -> io::Result<(CStrArray, Option<OsString>)> {
        let inherited = (!self.clear).then(std::env::vars_os).into_iter().flatten();
        // An unchanged environment is passed through whole, as std passes `environ`: the
        // entries without `=` that `vars_os` skips go back where they were.
        let raw = if self.is_unchanged() {
            super::initial_env::malformed()
        } else {
            &[]
        };
        self.build_from(inherited, raw, want_path)
    }

    /// No `env_clear`, no variable set or removed.
    fn is_unchanged(&self) -> bool {
        !self.clear && self.vars.is_empty()
    }

    /// As [`build`](Self::build), from `inherited` in `environ` order, in one pass straight
    /// into the buffer. Unchanged variables keep that order (duplicates included, as
    /// `execve(environ)` would pass them); a changed key loses every inherited entry and set
    /// ones follow, sorted by key. `PATH` is the first one, as `getenv` finds it.
    /// `raw` entries (`(index, bytes)`, ascending) are inserted at their index.
    fn build_from(
        &self,
        inherited: impl IntoIterator<Item = (OsString, OsString)>,
        raw: &[(usize, Vec<u8>)],
        want_path: bool,
    ) -> io::Result<(CStrArray, Option<OsString>)> {
        let mut envp = Builder::new();
        let mut path = None;
        let mut raw = raw.iter().peekable();
        let mut put = |envp: &mut Builder, k: &OsStr, v: &OsStr| {
            while let Some((_, bytes)) = raw.next_if(|(at, _)| *at <= envp.len()) {
                envp.push(&[bytes]);
            }
            if want_path && path.is_none() && k == "PATH" {
                path = Some(v.to_os_string());
            }
            envp.push(&[k.as_bytes(), b"=", v.as_bytes()]);
        };
        for (k, v) in inherited {
            // Inherited variables come from C strings: they hold no NUL.
            if self.vars.is_empty() || !self.vars.contains_key(&k) {
                put(&mut envp, &k, &v);
            }
        }
        for (k, v) in &self.vars {
            if let Some(v) = v {
                no_nul(k.as_bytes(), || format!("environment variable name {k:?}"))?;
                no_nul(v.as_bytes(), || {
                    format!("the value of environment variable {k:?}")
                })?;
                put(&mut envp, k, v);
            }
        }
        for (_, bytes) in raw {
            envp.push(&[bytes]);
        }
        Ok((envp.finish(), path))
    }
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

    /// The strings `envp` points at, in order.
    fn strings(envp: &CStrArray) -> Vec<String> {
        let all = envp.strings().into_iter();
        all.map(|s| String::from_utf8(s.to_vec()).unwrap())
            .collect()
    }

    fn pairs(vars: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        vars.iter().map(|(k, v)| (k.into(), v.into())).collect()
    }

    #[rstest]
    #[case(changes(true, &[("A", Some("1"))]), &[], &["A=1"], None)]
    #[case(changes(true, &[("PATH", Some("/x")), ("B", None)]), &[], &["PATH=/x"], Some("/x"))]
    #[case(changes(true, &[]), &[], &[], None)]
    #[case(changes(false, &[]), &[("Z", "1"), ("PATH", "/a"), ("PATH", "/b")], &["Z=1", "PATH=/a", "PATH=/b"], Some("/a"))]
    #[case(changes(false, &[("PATH", None)]), &[("PATH", "/a"), ("Y", ""), ("PATH", "/b")], &["Y="], None)]
    #[case(changes(false, &[("B", Some("2")), ("A", Some("1"))]), &[("B", "0"), ("C", "3")], &["C=3", "A=1", "B=2"], None)]
    fn built_environment(
        #[case] c: EnvChanges,
        #[case] inherited: &[(&str, &str)],
        #[case] want: &[&str],
        #[case] path: Option<&str>,
    ) {
        let (envp, got_path) = c.build_from(pairs(inherited), &[], true).unwrap();
        assert_eq!(strings(&envp), want);
        assert_eq!(got_path.as_deref(), path.map(OsStr::new));
    }

    /// Entries without `=` go back at their index (past the end: last), between variables.
    #[rstest]
    #[case(&[("A", "1"), ("B", "2")], &[(1, "FOOBAR")], &["A=1", "FOOBAR", "B=2"])]
    #[case(&[("A", "1")], &[(0, "X"), (1, "Y")], &["X", "Y", "A=1"])]
    #[case(&[], &[(5, "Z")], &["Z"])]
    fn raw_entries_go_back_where_they_were(
        #[case] vars: &[(&str, &str)],
        #[case] raw: &[(usize, &str)],
        #[case] want: &[&str],
    ) {
        let raw: Vec<(usize, Vec<u8>)> = raw
            .iter()
            .map(|(i, s)| (*i, s.as_bytes().to_vec()))
            .collect();
        let (envp, _) = changes(false, &[])
            .build_from(pairs(vars), &raw, false)
            .unwrap();
        assert_eq!(strings(&envp), want);
    }

    /// Without `want_path` no `PATH` is returned, even when there is one.
    #[test]
    fn path_only_when_wanted() {
        let (_, path) = changes(false, &[])
            .build_from(pairs(&[("PATH", "/a")]), &[], false)
            .unwrap();
        assert_eq!(path, None);
    }

    #[rstest]
    #[case("A\0B", "1", "environment variable name")]
    #[case("A", "1\x002", "the value of environment variable \"A\"")]
    fn nul_in_environment_is_named(#[case] k: &str, #[case] v: &str, #[case] msg: &str) {
        let e = match changes(true, &[(k, Some(v))]).build_from(Vec::new(), &[], true) {
            Err(e) => e,
            Ok(_) => panic!("a NUL byte must be rejected"),
        };
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains(msg), "{e}");
    }
}
