//! The outcome grammar: one string per observation, the same on every platform.
//!
//! `ok`, `add:ERRNO`, `returned:ERRNO`, `child-exit:N`, `child-signal:SIGNAME`, `unsupported`,
//! `skipped:REASON`. Errno and signal names are symbolic so reports compare across platforms.

use std::fmt;
use std::str::FromStr;

/// One observed (or expected) outcome.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The child ran and exited 0.
    Ok,
    /// Preparing the spawn failed: a `posix_spawn_file_actions_add*` or attribute setter
    /// returned this error.
    Add(String),
    /// The spawn call returned this error.
    Returned(String),
    /// The spawn succeeded and the child exited with this status (not 0).
    ChildExit(u8),
    /// The child was killed by this signal.
    ChildSignal(String),
    /// A function or flag the case needs is absent here.
    Unsupported,
    /// The case could not run here, for this reason.
    Skipped(String),
}

/// A string that is not in the outcome grammar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an outcome (expected ok, add:ERRNO, returned:ERRNO, child-exit:N, child-signal:SIGNAME, unsupported or skipped:REASON)")]
pub struct BadOutcome(pub String);

impl Outcome {
    /// Whether the outcome says the case was not tried at all.
    pub fn is_not_run(&self) -> bool {
        matches!(self, Outcome::Unsupported | Outcome::Skipped(_))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ok => f.write_str("ok"),
            Outcome::Add(e) => write!(f, "add:{e}"),
            Outcome::Returned(e) => write!(f, "returned:{e}"),
            Outcome::ChildExit(n) => write!(f, "child-exit:{n}"),
            Outcome::ChildSignal(s) => write!(f, "child-signal:{s}"),
            Outcome::Unsupported => f.write_str("unsupported"),
            Outcome::Skipped(r) => write!(f, "skipped:{r}"),
        }
    }
}

impl FromStr for Outcome {
    type Err = BadOutcome;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadOutcome(s.to_string());
        let symbolic = |name: &str, prefix: &str| {
            let ok = name.len() > prefix.len()
                && name.starts_with(prefix)
                && name[prefix.len()..]
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            ok.then(|| name.to_string())
        };
        match s.split_once(':') {
            None if s == "ok" => Ok(Outcome::Ok),
            None if s == "unsupported" => Ok(Outcome::Unsupported),
            None => Err(bad()),
            Some(("add", e)) => symbolic(e, "E").map(Outcome::Add).ok_or_else(bad),
            Some(("returned", e)) => symbolic(e, "E").map(Outcome::Returned).ok_or_else(bad),
            Some(("child-exit", n)) => match n.parse::<u8>() {
                Ok(n) if n != 0 => Ok(Outcome::ChildExit(n)),
                _ => Err(bad()),
            },
            Some(("child-signal", sig)) => symbolic(sig, "SIG")
                .map(Outcome::ChildSignal)
                .ok_or_else(bad),
            Some(("skipped", r)) if !r.is_empty() => Ok(Outcome::Skipped(r.to_string())),
            Some(_) => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::Outcome;

    #[rstest]
    #[case("ok", Outcome::Ok)]
    #[case("add:EBADF", Outcome::Add("EBADF".into()))]
    #[case("returned:ENOENT", Outcome::Returned("ENOENT".into()))]
    #[case("child-exit:127", Outcome::ChildExit(127))]
    #[case("child-signal:SIGUSR1", Outcome::ChildSignal("SIGUSR1".into()))]
    #[case("unsupported", Outcome::Unsupported)]
    #[case("skipped:needs-root", Outcome::Skipped("needs-root".into()))]
    fn round_trips(#[case] text: &str, #[case] outcome: Outcome) {
        assert_eq!(text.parse::<Outcome>(), Ok(outcome.clone()));
        assert_eq!(outcome.to_string(), text);
    }

    #[rstest]
    #[case("")]
    #[case("OK")]
    #[case("add:")]
    #[case("add:ebadf")]
    #[case("returned:BADF")]
    #[case("child-exit:0")]
    #[case("child-exit:256")]
    #[case("child-signal:USR1")]
    #[case("skipped:")]
    #[case("exited:1")]
    fn rejects(#[case] text: &str) {
        assert!(text.parse::<Outcome>().is_err(), "{text} parsed");
    }
}
