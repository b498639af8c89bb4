//! 32 threads x 500 spawns while other threads churn close-on-exec fds: every child sees only
//! its own pipes, every child is reaped, and the run ends before its deadline. Each load runs
//! in its own sub-process, so the children it lists at the end are its own.

use std::sync::Arc;
use std::time::Duration;

use spawnmatrix::fuzz::load::{self, LoadConfig, Spawner};
use spawnmatrix::fuzz::rawload::RawPosixSpawn;
use spawnmatrix::fuzz::sharedload::SharedSpawn;
use spawnmatrix::spawn::Strategy;

use super::strategies::each;
use super::subprocess::isolated;

/// How much smaller the load is on this platform. Cygwin emulates `fork` (a new Windows
/// process and a copy of the parent) and takes milliseconds per spawn where Linux takes tens
/// of microseconds, so 16,000 spawns per strategy would not end within the workflow's step
/// timeout: there each thread makes a tenth of the spawns, with the same threads, churn and
/// deadline, so the concurrency the test is about stays the same.
pub const SPAWN_DIVISOR: usize = if cfg!(target_os = "cygwin") { 10 } else { 1 };

/// The full load the issue asks for (scaled by [`SPAWN_DIVISOR`]).
pub const FULL: LoadConfig = LoadConfig {
    threads: 32,
    spawns_per_thread: 500 / SPAWN_DIVISOR,
    churn_threads: 4,
    deadline: Duration::from_secs(300),
};

/// Every forced strategy: the same threads, fewer spawns each, to keep the suite's run time
/// reasonable on two cores (`Auto` and the raw libc carry the full load; `FULL_FOR_ALL`
/// changes that).
pub const FORCED: LoadConfig = LoadConfig {
    spawns_per_thread: 100 / SPAWN_DIVISOR,
    ..FULL
};

/// Set (to anything) to give every forced strategy the full load too.
const FULL_FOR_ALL: &str = "SPAWNMATRIX_LOAD_FULL";

/// Runs the load through `spawner` and fails with the report when a guarantee broke.
pub fn check(name: &str, config: &LoadConfig, spawner: Arc<dyn Spawner>) {
    let helper = spawnmatrix::child::helper_path().expect("child helper");
    let report = load::run(config, spawner, &helper);
    println!(
        "{name}: {} threads x {} spawns: {} ok in {:.1?}, {} churn ops",
        config.threads,
        config.spawns_per_thread,
        report.succeeded,
        report.elapsed,
        report.churn_ops,
    );
    assert!(
        report.clean(),
        "{name}: load broke a guarantee: {report:#?}"
    );
    assert!(report.churn_ops > 0, "{name}: the churn threads never ran");
}

#[test]
fn raw_posix_spawn_under_load() {
    isolated("load::raw_posix_spawn_under_load", || {
        check("libc posix_spawn", &FULL, Arc::new(RawPosixSpawn))
    });
}

/// Every strategy in turn, in one sub-process (so leftover children are only its own).
#[test]
fn shared_under_load() {
    isolated("load::shared_under_load", || {
        each(|strategy| {
            let full = strategy == Strategy::Auto || std::env::var_os(FULL_FOR_ALL).is_some();
            let config = if full { FULL } else { FORCED };
            check(
                &format!("shared {strategy}"),
                &config,
                Arc::new(SharedSpawn(strategy)),
            );
        })
    });
}
