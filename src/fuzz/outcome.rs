//! What one executor made of one sequence, normalised so that executors compare: errnos and
//! signals by name, fixture objects by label, process ids by their relation to the parent.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::conformance::signal_name;
use crate::errno;

/// One executor's result, printed in the suite's outcome grammar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// The child ran and reported this state.
    Ok(Box<Observation>),
    /// A `posix_spawn_file_actions_add*` or `posix_spawnattr_*` call refused the input.
    Add(String),
    /// The spawn call returned this error.
    Returned(String),
    /// The child exited with this status without reporting (for example 127 after a failed
    /// action in a libc that does not return errors).
    ChildExit(i32),
    ChildSignal(String),
    /// This executor cannot express the sequence here (the reason says what is missing).
    Unsupported(String),
}

impl Outcome {
    pub fn add(errno: i32) -> Outcome {
        Outcome::Add(errno::name(errno))
    }

    pub fn returned(errno: i32) -> Outcome {
        Outcome::Returned(errno::name(errno))
    }

    /// Whether this outcome says nothing about behaviour (it is not compared).
    pub fn is_unsupported(&self) -> bool {
        matches!(self, Outcome::Unsupported(_))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ok(_) => f.write_str("ok"),
            Outcome::Add(e) => write!(f, "add:{e}"),
            Outcome::Returned(e) => write!(f, "returned:{e}"),
            Outcome::ChildExit(n) => write!(f, "child-exit:{n}"),
            Outcome::ChildSignal(s) => write!(f, "child-signal:{s}"),
            Outcome::Unsupported(why) => write!(f, "unsupported ({why})"),
        }
    }
}

/// How a process id the child reported relates to the spawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// Equal to the child's own pid.
    Child,
    /// Equal to the parent's value.
    Parent,
    Other,
}

impl Relation {
    pub fn of(value: i64, child_pid: i64, parent_value: i64) -> Relation {
        if value == child_pid {
            Relation::Child
        } else if value == parent_value {
            Relation::Parent
        } else {
            Relation::Other
        }
    }
}

/// One fd in the child, with the fixture-specific parts replaced by labels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FdView {
    pub fd: i64,
    pub cloexec: bool,
    pub access: String,
    pub append: bool,
    pub nonblock: bool,
    pub kind: String,
    /// A fixture label (`$FIX/a`, `fixture-pipe`) or the target as reported.
    pub what: String,
    pub offset: Option<i64>,
}

/// The child's state as the comparison sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub fds: Vec<FdView>,
    pub cwd: Option<String>,
    pub cwd_errno: Option<String>,
    pub sigmask: Vec<String>,
    pub ignored: Vec<String>,
    pub handled: Vec<String>,
    pub pgid: Relation,
    pub sid: Relation,
}

impl Observation {
    /// The fields in which `self` and `other` differ, by name, for messages.
    pub fn differences(&self, other: &Observation) -> Vec<String> {
        let mut out = Vec::new();
        let mut field = |name: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{name}: {a} vs {b}"));
            }
        };
        let fds = |o: &Observation| serde_json::to_string(&o.fds).unwrap_or_default();
        field("fds", fds(self), fds(other));
        field("cwd", format!("{:?}", self.cwd), format!("{:?}", other.cwd));
        field(
            "cwd_errno",
            format!("{:?}", self.cwd_errno),
            format!("{:?}", other.cwd_errno),
        );
        field(
            "sigmask",
            format!("{:?}", self.sigmask),
            format!("{:?}", other.sigmask),
        );
        field(
            "ignored",
            format!("{:?}", self.ignored),
            format!("{:?}", other.ignored),
        );
        field(
            "handled",
            format!("{:?}", self.handled),
            format!("{:?}", other.handled),
        );
        field(
            "pgid",
            format!("{:?}", self.pgid),
            format!("{:?}", other.pgid),
        );
        field("sid", format!("{:?}", self.sid), format!("{:?}", other.sid));
        out
    }
}

/// The outcome for a reaped child that did not report: its exit status or signal.
pub fn from_wait_status(status: libc::c_int) -> Outcome {
    if libc::WIFEXITED(status) {
        Outcome::ChildExit(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        Outcome::ChildSignal(signal_name(libc::WTERMSIG(status)))
    } else {
        Outcome::ChildExit(-1)
    }
}
