//! The iterators `Command::get_args` and `Command::get_envs` return, as in std.

use std::collections::btree_map;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;

use super::debug::CStrDebug;

/// The arguments of a `Command` after the program. Mirrors `std::process::CommandArgs`.
#[derive(Clone)]
pub struct CommandArgs<'a> {
    iter: std::slice::Iter<'a, OsString>,
}

impl<'a> CommandArgs<'a> {
    pub(crate) fn new(args: &'a [OsString]) -> Self {
        CommandArgs { iter: args.iter() }
    }
}

impl<'a> Iterator for CommandArgs<'a> {
    type Item = &'a OsStr;

    fn next(&mut self) -> Option<&'a OsStr> {
        self.iter.next().map(OsString::as_os_str)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl ExactSizeIterator for CommandArgs<'_> {}

impl fmt::Debug for CommandArgs<'_> {
    /// `CommandArgs { inner: [..] }`, each argument quoted as std quotes a C string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// The remaining arguments as a list.
        struct List<'a>(std::slice::Iter<'a, OsString>);
        impl fmt::Debug for List<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list()
                    .entries(self.0.clone().map(|a| CStrDebug(a)))
                    .finish()
            }
        }
        f.debug_struct("CommandArgs")
            .field("inner", &List(self.iter.clone()))
            .finish()
    }
}

/// The environment changes of a `Command`, sorted by key. Mirrors `std::process::CommandEnvs`.
#[derive(Clone, Debug)]
pub struct CommandEnvs<'a> {
    iter: btree_map::Iter<'a, OsString, Option<OsString>>,
}

impl<'a> CommandEnvs<'a> {
    pub(crate) fn new(vars: &'a BTreeMap<OsString, Option<OsString>>) -> Self {
        CommandEnvs { iter: vars.iter() }
    }
}

impl<'a> Iterator for CommandEnvs<'a> {
    type Item = (&'a OsStr, Option<&'a OsStr>);

    fn next(&mut self) -> Option<Self::Item> {
        self.iter.next().map(|(k, v)| (k.as_os_str(), v.as_deref()))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl ExactSizeIterator for CommandEnvs<'_> {}
