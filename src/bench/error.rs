//! Everything that can stop a benchmark run, each naming what went wrong.

use std::io;

/// Why a benchmark could not run or could not finish.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A `--sizes` entry that is not a size.
    #[error("invalid parent size {input:?}: {reason}")]
    BadSize { input: String, reason: String },
    /// A parent size this machine cannot hold.
    #[error("parent size {size} refused: {reason}")]
    SizeRefused { size: String, reason: String },
    /// `--iterations` or `--warmup` out of range.
    #[error("invalid {what}: {reason}")]
    BadCount { what: &'static str, reason: String },
    /// A `--methods` entry that names no method available here.
    #[error("unknown method {name:?}; available here: {available}")]
    UnknownMethod { name: String, available: String },
    /// Allocating or touching the parent's ballast memory failed.
    #[error("could not allocate {size} of parent memory")]
    Ballast {
        size: String,
        #[source]
        source: io::Error,
    },
    /// Preparing the workload (child program, directory, /dev/null) failed.
    #[error("could not prepare the workload: {what}")]
    Workload {
        what: String,
        #[source]
        source: io::Error,
    },
    /// A spawn call itself failed.
    #[error("{method}: spawn failed")]
    Spawn {
        method: String,
        #[source]
        source: io::Error,
    },
    /// The child ran but did not exit with status 0 (127: it could not exec).
    #[error("{method}: child did not succeed ({status})")]
    ChildFailed { method: String, status: String },
    /// The floor has no positive median, so no ratio can be computed.
    #[error("at parent size {size} the floor has no positive median time")]
    NoFloor { size: String },
    /// The plot could not be drawn.
    #[error("could not draw the plot: {0}")]
    Render(String),
    /// Pinning the measuring thread to one CPU failed.
    #[error("could not pin the benchmark to one CPU (--no-pin measures without)")]
    Pin(#[source] io::Error),
    /// CLOCK_MONOTONIC could not be read.
    #[error("could not read CLOCK_MONOTONIC")]
    Clock(#[source] io::Error),
    /// Waiting for the child failed.
    #[error("{method}: waiting for the child failed")]
    Wait {
        method: String,
        #[source]
        source: io::Error,
    },
}
