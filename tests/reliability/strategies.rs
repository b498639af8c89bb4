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

/// Every strategy a caller can force, `Vfork` aside (never offered; see `Strategy::Vfork`).
pub const FORCEABLE: [Strategy; 5] = [
    Strategy::Auto,
    Strategy::PosixSpawn,
    Strategy::Clone3,
    Strategy::CloneVfork,
    Strategy::Fork,
];

/// Runs `f` for every forceable strategy usable here, one after the other.
pub fn each(mut f: impl FnMut(Strategy)) {
    for s in FORCEABLE.into_iter().filter(|s| usable(*s)) {
        f(s);
    }
}
