//! The environment the child receives, and the `PATH` its program is searched in.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::ffi::{c_char, OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;

use super::error::InputError;

/// Changes to the parent's environment requested on a `Command`.
#[derive(Clone, Debug, Default)]
pub(super) struct EnvChanges {
    /// Start from an empty environment instead of the parent's.
    pub clear: bool,
    /// `Some(value)` sets, `None` removes.
    pub vars: BTreeMap<OsString, Option<OsString>>,
}

/// The environment of one spawn: every `KEY=VALUE\0` in one buffer and the null-terminated
/// pointer array into it, owned by the spawn. Never the live `environ` array: a safe
/// `std::env::set_var` in another thread may `realloc` that array while the child still reads
/// it (std avoids this by holding its environment lock over the spawn; this crate cannot take
/// that lock, so it copies under it). One buffer rather than a string per variable: each
/// allocation shows in the spawn's cost, and musl's malloc maps and unmaps a page for a buffer
/// of this size each time, so the two buffers are kept per thread for the next spawn.
pub(super) struct Envp {
    bytes: Vec<u8>,
    ptrs: Vec<*const c_char>,
}

thread_local! {
    /// The buffers of this thread's last dropped `Envp`, emptied.
    static SPARE: Cell<Option<(Vec<u8>, Vec<*const c_char>)>> = const { Cell::new(None) };
}

impl Envp {
    /// The `envp` argument for `execve`.
    pub(super) fn as_ptr(&self) -> *const *const c_char {
        self.ptrs.as_ptr()
    }

    /// Empty buffers with room for `bytes` bytes and `vars` variables: the spare ones when
    /// this thread has them.
    fn with_capacity(bytes: usize, vars: usize) -> Envp {
        let (mut b, mut p) = SPARE
            .try_with(Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default();
        b.reserve(bytes);
        p.reserve(vars + 1);
        Envp { bytes: b, ptrs: p }
    }
}

impl Drop for Envp {
    fn drop(&mut self) {
        let mut bytes = std::mem::take(&mut self.bytes);
        let mut ptrs = std::mem::take(&mut self.ptrs);
        bytes.clear();
        ptrs.clear();
        // During thread teardown the buffers are simply freed.
        let _ = SPARE.try_with(|spare| spare.set(Some((bytes, ptrs))));
    }
}

impl EnvChanges {
    /// The child's environment and, if `want_path`, its `PATH` (`None`: it has none). The
    /// parent's environment is copied with `std::env::vars_os`, under std's environment lock,
    /// so the child's `envp` and the `PATH` searched come from one consistent snapshot.
    pub(super) fn build(&self, want_path: bool) -> io::Result<(Envp, Option<OsString>)> {
        let inherited = if self.clear {
            Vec::new()
        } else {
            std::env::vars_os().collect()
        };
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

    /// As [`build`](Self::build), from `inherited` in `environ` order. Unchanged variables
    /// keep that order (duplicates included, as `execve(environ)` would pass them); a changed
    /// key loses every inherited entry and set ones follow, sorted by key. `PATH` is the first
    /// one, as `getenv` finds it.
    /// `raw` entries (`(index, bytes)`, ascending) are inserted at their index.
    fn build_from(
        &self,
        mut vars: Vec<(OsString, OsString)>,
        raw: &[(usize, Vec<u8>)],
        want_path: bool,
    ) -> io::Result<(Envp, Option<OsString>)> {
        if !self.vars.is_empty() {
            vars.retain(|(k, _)| !self.vars.contains_key(k));
            vars.extend(
                self.vars
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.clone()?))),
            );
        }
        let mut entries: Vec<Entry> = vars.iter().map(|(k, v)| Entry::Pair(k, v)).collect();
        for (at, bytes) in raw {
            entries.insert((*at).min(entries.len()), Entry::Raw(bytes));
        }
        let len = entries.iter().map(Entry::len).sum();
        let mut envp = Envp::with_capacity(len, entries.len());
        for e in &entries {
            e.write(&mut envp.bytes)?;
        }
        // Pointers only once the buffer is complete: it never moves afterwards.
        let base = envp.bytes.as_ptr().cast::<c_char>();
        let mut offset = 0;
        for e in &entries {
            envp.ptrs.push(base.wrapping_add(offset));
            offset += e.len();
        }
        envp.ptrs.push(std::ptr::null());
        let path = want_path
            .then(|| vars.into_iter().find(|(k, _)| k == "PATH").map(|(_, v)| v))
            .flatten();
        Ok((envp, path))
    }
}

/// One `envp` string: a variable, or an inherited entry passed through as it was.
enum Entry<'a> {
    Pair(&'a OsStr, &'a OsStr),
    Raw(&'a [u8]),
}

impl Entry<'_> {
    /// The bytes it takes in the buffer, its NUL included.
    fn len(&self) -> usize {
        match self {
            Entry::Pair(k, v) => entry_len(k, v),
            Entry::Raw(b) => b.len() + 1,
        }
    }

    /// Appends it; a NUL in a variable is an error naming it.
    fn write(&self, buf: &mut Vec<u8>) -> io::Result<()> {
        match self {
            Entry::Pair(k, v) => {
                check_no_nul(k, v)?;
                buf.extend_from_slice(k.as_bytes());
                buf.push(b'=');
                buf.extend_from_slice(v.as_bytes());
            }
            Entry::Raw(b) => buf.extend_from_slice(b),
        }
        buf.push(0);
        Ok(())
    }
}

/// The bytes `KEY=VALUE\0` takes in the buffer.
fn entry_len(k: &OsStr, v: &OsStr) -> usize {
    k.len() + v.len() + 2
}

/// A NUL byte in a key or value is an error naming the key.
fn check_no_nul(k: &OsStr, v: &OsStr) -> io::Result<()> {
    let what = if k.as_bytes().contains(&0) {
        format!("environment variable name {k:?}")
    } else if v.as_bytes().contains(&0) {
        format!("the value of environment variable {k:?}")
    } else {
        return Ok(());
    };
    Err(InputError::Nul { what }.into())
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
    fn strings(envp: &Envp) -> Vec<String> {
        let mut out = Vec::new();
        for &p in envp.ptrs.iter().take_while(|p| !p.is_null()) {
            // SAFETY: every non-null pointer is a NUL-terminated string in `bytes`.
            let s = unsafe { std::ffi::CStr::from_ptr(p) };
            out.push(s.to_str().unwrap().to_string());
        }
        assert_eq!(envp.ptrs.last(), Some(&std::ptr::null()));
        assert_eq!(envp.ptrs.len(), out.len() + 1);
        out
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

    /// A thread's next spawn reuses the buffers of its last one, and a larger environment
    /// than the last still comes out whole.
    #[test]
    fn buffers_are_reused_and_grow() {
        let small = pairs(&[("A", "1")]);
        let (first, _) = changes(false, &[])
            .build_from(small.clone(), &[], false)
            .unwrap();
        let first_ptrs = first.ptrs.as_ptr();
        drop(first);
        let (again, _) = changes(false, &[]).build_from(small, &[], false).unwrap();
        assert_eq!(
            again.ptrs.as_ptr(),
            first_ptrs,
            "the spare buffers were not reused"
        );
        drop(again);
        let long = "x".repeat(10_000);
        let big: Vec<(OsString, OsString)> = (0..100)
            .map(|i| (format!("K{i}").into(), long.clone().into()))
            .collect();
        let (envp, _) = changes(false, &[]).build_from(big, &[], false).unwrap();
        let got = strings(&envp);
        assert_eq!(got.len(), 100);
        assert!(got
            .iter()
            .enumerate()
            .all(|(i, s)| *s == format!("K{i}={long}")));
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
