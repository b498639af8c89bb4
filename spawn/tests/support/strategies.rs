//! The strategies a test tries one by one (`Vfork` is never a strategy that runs).

use spawnmatrix_spawn::Strategy;

pub const STRATEGIES: [Strategy; 5] = [
    Strategy::Auto,
    Strategy::Clone3,
    Strategy::CloneVfork,
    Strategy::PosixSpawn,
    Strategy::Fork,
];
