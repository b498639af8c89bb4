//! From the helper's report to an [`Observation`]: fixture objects become labels, ids become
//! relations, so reports from different fixtures and pids compare.

use std::io;
use std::path::Path;

use crate::child::ChildState;

use super::fixture::Fixture;
use super::outcome::{from_wait_status, FdView, Observation, Outcome, Relation};

fn text<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::from("?"),
    }
}

/// The offset of an fd on a fixture object (`$FIX...`): only those are the sequence's doing.
/// Anything else the child inherited (the runner's stderr redirected to a log file, say)
/// moves while the runner writes to it, between one executor's run and the next.
fn fixture_offset(what: &str, offset: Option<i64>) -> Option<i64> {
    offset.filter(|_| what.starts_with("$FIX"))
}

/// Normalises a report the helper wrote from inside `fx`.
pub fn observe(state: &ChildState, fx: &Fixture) -> Observation {
    // SAFETY: getpgrp and getsid(0) cannot fail for the calling process.
    let (pgrp, sid) = unsafe { (libc::getpgrp(), libc::getsid(0)) };
    let fds = state
        .fds
        .iter()
        .map(|f| {
            let what = fx.label(f.dev, f.ino, f.target.as_deref());
            FdView {
                fd: i64::from(f.fd),
                cloexec: f.cloexec,
                access: text(&f.access),
                append: f.append,
                nonblock: f.nonblock,
                kind: text(&f.kind),
                offset: fixture_offset(&what, f.offset),
                what,
            }
        })
        .collect();
    Observation {
        fds,
        cwd: state.cwd.as_deref().map(|c| fx.normalise_path(c)),
        cwd_errno: state.cwd_errno.clone(),
        sigmask: state.sigmask.clone(),
        ignored: state.ignored.clone(),
        handled: state.handled.clone(),
        pgid: Relation::of(i64::from(state.pgid), i64::from(state.pid), i64::from(pgrp)),
        sid: Relation::of(i64::from(state.sid), i64::from(state.pid), i64::from(sid)),
    }
}

/// The outcome of a reaped child with raw wait `status`: its report when it exited 0,
/// otherwise how it ended.
pub fn conclude(status: libc::c_int, report: &Path, fx: &Fixture) -> io::Result<Outcome> {
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Ok(from_wait_status(status));
    }
    let state =
        ChildState::read(report).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    Ok(Outcome::Ok(Box::new(observe(&state, fx))))
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::fixture_offset;

    /// A campaign with stderr sent to a file saw 53 "divergences" that were only that file's
    /// offset growing with the progress lines between two executors' runs.
    #[rstest]
    #[case("$FIX/a", Some(1), Some(1))]
    #[case("$FIX/new", Some(0), Some(0))]
    #[case("/tmp/campaign.err", Some(474), None)]
    #[case("/dev/null", Some(0), None)]
    #[case("$FIX/a", None, None)]
    fn only_fixture_offsets_count(
        #[case] what: &str,
        #[case] offset: Option<i64>,
        #[case] kept: Option<i64>,
    ) {
        assert_eq!(fixture_offset(what, offset), kept);
    }
}
