//! The `execvp` rule for going on after a failed candidate: a pure function, so the child
//! (and the `posix_spawn` strategy, one call per candidate) can use it. The candidates are
//! the plan's (`plan/search.rs`).

/// Where a search stands after some failed candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SearchState {
    saw_eacces: bool,
    last: libc::c_int,
}

/// What to do after a candidate failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// Try the next candidate (if there is none, report [`SearchState::result`]).
    Continue,
    /// Stop and report this errno.
    Stop(libc::c_int),
}

impl SearchState {
    /// Nothing tried yet; an empty candidate list reports `ENOENT`.
    pub(crate) const fn new() -> Self {
        SearchState {
            saw_eacces: false,
            last: libc::ENOENT,
        }
    }

    /// The `execvp` rule for a candidate that failed with `errno`. Async-signal-safe.
    pub(crate) fn after(&mut self, errno: libc::c_int) -> Next {
        match errno {
            libc::EACCES => {
                self.saw_eacces = true;
                Next::Continue
            }
            libc::ENOENT | libc::ENOTDIR | libc::ESTALE | libc::ENODEV | libc::ETIMEDOUT => {
                self.last = errno;
                Next::Continue
            }
            other => Next::Stop(other),
        }
    }

    /// The errno once every candidate failed: `EACCES` if one was found but not executable.
    pub(crate) fn result(&self) -> libc::c_int {
        if self.saw_eacces {
            libc::EACCES
        } else {
            self.last
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(&[], libc::ENOENT, None)]
    #[case(&[libc::ENOENT, libc::ENOTDIR], libc::ENOTDIR, None)]
    #[case(&[libc::EACCES, libc::ENOENT], libc::EACCES, None)]
    #[case(&[libc::ENOENT, libc::ENOEXEC], 0, Some(libc::ENOEXEC))]
    #[case(&[libc::EACCES, libc::E2BIG], 0, Some(libc::E2BIG))]
    fn search_rule_is_execvps(
        #[case] errors: &[libc::c_int],
        #[case] result: libc::c_int,
        #[case] stop: Option<libc::c_int>,
    ) {
        let mut s = SearchState::new();
        for &e in errors {
            if let Next::Stop(got) = s.after(e) {
                assert_eq!(Some(got), stop);
                return;
            }
        }
        assert_eq!(stop, None);
        assert_eq!(s.result(), result);
    }
}
