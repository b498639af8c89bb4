//! The ways a child can be created and their names. (Which of them this process can use is
//! the strategies' to say: `Strategy::available`, in `strategies/`.)

use std::fmt;
use std::str::FromStr;

/// How the child process is created. Every strategy gives the same semantics (see the
/// [crate docs](crate)); they differ in cost and in what they can express on a platform.
///
/// ```
/// use spawnmatrix_spawn::{Command, Strategy};
///
/// // Every strategy this process can use runs the same command the same way.
/// for strategy in Strategy::available() {
///     let status = Command::new("true").strategy(strategy).status()?;
///     assert!(status.success(), "{strategy}");
/// }
/// assert_eq!("clone3".parse::<Strategy>(), Ok(Strategy::Clone3));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The fastest strategy that can express the request here.
    #[default]
    Auto,
    /// libc `posix_spawn` with file actions and attributes.
    PosixSpawn,
    /// Linux `clone3(CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND)` on a private stack (kernel 5.5+).
    Clone3,
    /// Linux `clone(CLONE_VM|CLONE_VFORK)` on a private stack.
    CloneVfork,
    /// `vfork`. Not offered: Rust cannot call a returns-twice function soundly, and on Linux
    /// `CloneVfork` gives the same sharing with a stack of its own.
    Vfork,
    /// `fork` + `execve`, with a close-on-exec pipe carrying the child's errno back.
    Fork,
}

impl Strategy {
    /// Every strategy, `Auto` first.
    pub const ALL: [Strategy; 6] = [
        Strategy::Auto,
        Strategy::PosixSpawn,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::Vfork,
        Strategy::Fork,
    ];

    /// The name used in reports and benchmarks.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Auto => "auto",
            Strategy::PosixSpawn => "posix_spawn",
            Strategy::Clone3 => "clone3",
            Strategy::CloneVfork => "clone_vfork",
            Strategy::Vfork => "vfork",
            Strategy::Fork => "fork",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A strategy name that is not one of `Strategy::name`'s.
#[derive(Debug, PartialEq, Eq)]
pub struct ParseStrategyError(pub String);

impl fmt::Display for ParseStrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown spawn strategy {:?} (known: ", self.0)?;
        for (i, s) in Strategy::ALL.into_iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{s}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for ParseStrategyError {}

impl FromStr for Strategy {
    type Err = ParseStrategyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Strategy::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| ParseStrategyError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("auto", Strategy::Auto)]
    #[case("posix_spawn", Strategy::PosixSpawn)]
    #[case("clone3", Strategy::Clone3)]
    #[case("clone_vfork", Strategy::CloneVfork)]
    #[case("vfork", Strategy::Vfork)]
    #[case("fork", Strategy::Fork)]
    fn names_round_trip(#[case] name: &str, #[case] s: Strategy) {
        assert_eq!(s.name(), name);
        assert_eq!(name.parse::<Strategy>(), Ok(s));
    }

    #[rstest]
    #[case("")]
    #[case("Auto")]
    #[case("clone")]
    fn unknown_names_are_errors(#[case] name: &str) {
        assert_eq!(
            name.parse::<Strategy>(),
            Err(ParseStrategyError(name.to_string()))
        );
    }
}
