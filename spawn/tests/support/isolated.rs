//! Running one test's body in a re-executed copy of the test binary, for process-wide
//! settings (`SIGCHLD` ignored, dropped privileges) that must not reach the other tests.

/// Set in the re-executed copy to the name of the test whose body it runs.
const MARKER: &str = "SPAWNMATRIX_TEST_SUBPROCESS";

/// Runs `body` in a re-executed copy of this binary that runs test `test` only (and runs it
/// directly when this is that copy). Fails if the copy fails or did not run the test.
pub fn isolated(test: &str, body: impl FnOnce()) {
    if std::env::var(MARKER).as_deref() == Ok(test) {
        body();
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(MARKER, test)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!(
        "--- {test} in a sub-process ---\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{test} failed in its sub-process");
    assert!(
        stdout.contains("1 passed"),
        "the sub-process did not run {test}"
    );
}
