//! Running one test body in a re-executed copy of this test binary.

use std::process::Command;

/// Set in the re-executed copy to the name of the test whose body it runs.
const MARKER: &str = "SPAWNMATRIX_TEST_SUBPROCESS";

/// Runs `body` in a fresh process: this test binary again, filtered to `test` (its full
/// name, `module::function`). In that process `body` runs directly; here the call succeeds
/// when it exited 0, and its output is printed either way.
pub fn isolated(test: &str, body: impl FnOnce()) {
    if std::env::var(MARKER).as_deref() == Ok(test) {
        body();
        return;
    }
    let exe = own_exe();
    let out = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(MARKER, test)
        .output()
        .expect("re-executing the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("--- {test} in a sub-process ---\n{stdout}{stderr}");
    assert!(
        out.status.success(),
        "{test} failed in its sub-process ({})",
        out.status
    );
    assert!(
        stdout.contains("1 passed"),
        "the sub-process did not run {test}"
    );
}

// `own_exe`: the spawn package's, which also runs where there is no /proc.
include!("../../spawn/tests/support/paths.rs");
