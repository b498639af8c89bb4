//! Running one test's body in a re-executed copy of the test binary, for process-wide
//! settings (`SIGCHLD` ignored, dropped privileges) that must not reach the other tests.
#![allow(dead_code)] // Each test file uses some.

include!("paths.rs");

/// Set in the re-executed copy to the name of the test whose body it runs.
const MARKER: &str = "SPAWNMATRIX_TEST_SUBPROCESS";

/// Runs `body` in a re-executed copy of this binary that runs test `test` only (and runs it
/// directly when this is that copy). Fails if the copy fails or did not run the test.
pub fn isolated(test: &str, body: impl FnOnce()) {
    assert!(
        isolated_after(test, || Ok(()), body),
        "the sub-process for {test} did not start"
    );
}

/// As [`isolated`], with `setup` run in the re-executed copy's process before its `exec`
/// (a new namespace, say). Returns false, saying why, where `setup` fails here (the test is
/// then skipped by its caller); a copy that ran and failed fails the test.
pub fn isolated_after(test: &str, setup: fn() -> std::io::Result<()>, body: impl FnOnce()) -> bool {
    use std::os::unix::process::CommandExt as _;
    if std::env::var(MARKER).as_deref() == Ok(test) {
        body();
        return true;
    }
    let mut cmd = std::process::Command::new(own_exe());
    cmd.args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(MARKER, test);
    // SAFETY: `setup` makes only async-signal-safe calls (its contract).
    unsafe { cmd.pre_exec(setup) };
    let out = match cmd.output() {
        Ok(out) => out,
        Err(e) => {
            println!("skipped: {test} cannot be set up here: {e}");
            return false;
        }
    };
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
    true
}
