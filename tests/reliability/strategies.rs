//! Which shared-implementation strategies a test can force here.

use spawnmatrix::spawn::{Command, Strategy};

/// Whether `strategy` is available here. When it is not, checks the documented behaviour
/// instead: forcing it fails with `ErrorKind::Unsupported` before anything is spawned.
pub fn usable(strategy: Strategy) -> bool {
    if strategy.is_available() {
        return true;
    }
    let helper = spawnmatrix::child::helper_path().expect("child helper");
    let result = Command::new(helper).strategy(strategy).status();
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {
            println!("{strategy} is not available here; forcing it fails: {e}");
            false
        }
        other => panic!("forcing the unavailable strategy {strategy} gave {other:?}"),
    }
}

/// The suffix rstest gives the case for `strategy` in this crate's tables (`1_auto`, ...):
/// the tables list strategies in this order.
pub fn case_suffix(strategy: Strategy) -> String {
    let order = [
        Strategy::Auto,
        Strategy::PosixSpawn,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::Fork,
    ];
    let i = order.iter().position(|s| *s == strategy).unwrap_or(0);
    format!("{}_{}", i + 1, strategy.name())
}
