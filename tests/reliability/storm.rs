//! A signal storm during 1,000 spawns: the parent's handler never runs in a child, and every
//! spawn succeeds or reports its error. Runs in its own process group (a sub-process), since
//! the flood goes to the whole group.

use std::sync::Arc;

use spawnmatrix::fuzz::load::Spawner;
use spawnmatrix::fuzz::rawload::RawPosixSpawn;
use spawnmatrix::fuzz::sharedload::SharedSpawn;
use spawnmatrix::fuzz::storm;

use super::strategies::each;
use super::subprocess::isolated;

const SPAWNS: usize = 1000;

/// Runs the storm through `spawner` in this (sub-)process, which must lead its own group.
pub fn check(name: &str, spawner: Arc<dyn Spawner>) {
    // SAFETY: setpgid(0, 0) makes this process lead a new group; it affects nothing else.
    assert_eq!(unsafe { libc::setpgid(0, 0) }, 0, "setpgid");
    let helper = spawnmatrix::child::helper_path().expect("child helper");
    let r = storm::run(spawner, &helper, SPAWNS, 4).expect("storm");
    println!("{name}: {r:?}");
    assert_eq!(
        r.in_child_shared + r.in_child_pipe,
        0,
        "{name}: handler ran in a child: {r:?}"
    );
    assert!(
        r.handled_in_parent > 0,
        "{name}: the storm never reached the parent: {r:?}"
    );
    assert!(
        r.failures.is_empty(),
        "{name}: spawns failed: {:?}",
        r.failures
    );
    assert_eq!(r.succeeded, SPAWNS, "{name}: spawns lost: {r:?}");
}

#[test]
fn raw_posix_spawn_signal_storm() {
    isolated("storm::raw_posix_spawn_signal_storm", || {
        check("libc posix_spawn", Arc::new(RawPosixSpawn))
    });
}

/// Every strategy in turn, in one sub-process with its own process group.
#[test]
fn shared_signal_storm() {
    isolated("storm::shared_signal_storm", || {
        each(|strategy| {
            check(
                &format!("shared {strategy}"),
                Arc::new(SharedSpawn(strategy)),
            )
        })
    });
}
