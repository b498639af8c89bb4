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

/// Normalises a report the helper wrote from inside `fx`.
pub fn observe(state: &ChildState, fx: &Fixture) -> Observation {
    // SAFETY: getpgrp and getsid(0) cannot fail for the calling process.
    let (pgrp, sid) = unsafe { (libc::getpgrp(), libc::getsid(0)) };
    let fds = state
        .fds
        .iter()
        .map(|f| FdView {
            fd: i64::from(f.fd),
            cloexec: f.cloexec,
            access: text(&f.access),
            append: f.append,
            nonblock: f.nonblock,
            kind: text(&f.kind),
            what: fx.label(f.dev, f.ino, f.target.as_deref()),
            offset: f.offset,
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
