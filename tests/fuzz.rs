//! Bounded differential fuzz, part of `cargo test`: a few hundred random file-action and
//! attribute sequences through the fork+exec reference, the raw libc and the shared
//! implementation (every strategy). Seeded and reproducible: the seed is printed, and
//! `SPAWNMATRIX_FUZZ_SEED` / `SPAWNMATRIX_FUZZ_SEQUENCES` change it. The long run is
//! `spawnmatrix fuzz --sequences N --seed S`.
//!
//! This binary holds one test only: the runner sets process-wide signal dispositions and
//! places fixture fds at fixed numbers, which other tests in the same process would disturb.

use spawnmatrix::fuzz::model::Sequence;
use spawnmatrix::fuzz::run::{fuzz, Runner};

/// The default seed: fixed, so every run of the suite checks the same sequences.
const SEED: u64 = 0x5EED_2026;
const SEQUENCES: usize = 300;

fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a number")),
        Err(_) => default,
    }
}

/// Sequences that once diverged without explanation, one per fixed bug; each must now run
/// clean. (Findings print sequences in this form; `spawnmatrix fuzz --replay JSON` reruns one.)
const REGRESSIONS: &[(&str, &str)] = &[(
    // The shared translation took an fd opened O_RDONLY (not O_DIRECTORY) on a directory
    // for one fchdir would refuse, and dropped the fd map (seed 1, sequence #86).
    "fchdir to a directory opened without O_DIRECTORY",
    r#"{"inherit":[],"actions":[{"op":"open","fd":1,"path":{"fixture":"root"},"mode":"read","cloexec":false},{"op":"fchdir","fd":1}],"attrs":{"sigmask":null,"sigdefault":null,"pgroup":null,"setsid":false}}"#,
)];

#[test]
fn differential_fuzz_finds_no_unexplained_divergence() {
    let seed = env_number("SPAWNMATRIX_FUZZ_SEED", SEED);
    let count = env_number("SPAWNMATRIX_FUZZ_SEQUENCES", SEQUENCES);
    println!("fuzz seed {seed}, {count} sequences (SPAWNMATRIX_FUZZ_SEED to replay)");
    let helper = spawnmatrix::child::helper_path().expect("child helper");
    let runner = Runner::new(&helper, Runner::all_subjects()).expect("fuzz runner");
    for (what, json) in REGRESSIONS {
        let seq: Sequence = serde_json::from_str(json).expect("regression sequence");
        let unexplained: Vec<_> = runner
            .divergences(&seq)
            .expect("regression run")
            .into_iter()
            .filter(|d| d.known.is_none())
            .collect();
        assert!(unexplained.is_empty(), "{what}: {unexplained:#?}");
    }
    let summary = fuzz(&runner, seed, count, |_| {}).expect("fuzz run");
    println!("{summary}");
    // A libc without addclosefrom_np (musl) cannot run every sequence; most must still compare.
    assert!(
        summary.compared >= count / 2,
        "most sequences could not be compared: {summary}"
    );
    assert!(
        summary.unexplained.is_empty(),
        "unexplained divergences (seed {seed}):\n{summary}"
    );
}
