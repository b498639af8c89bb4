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

/// This test binary's path: `current_exe`, or, where that has nothing to read (Linux answers
/// it from /proc/self/exe; a bare root or a FreeBSD-like system mounts no /proc), `argv[0]`
/// made absolute when it names a file, as cargo and ci/bare-root.sh start test binaries by
/// their path. So a test run in a sub-process runs without /proc instead of skipping.
fn own_exe() -> std::path::PathBuf {
    std::env::current_exe()
        .or_else(|e| {
            std::env::args_os()
                .next()
                .map(std::path::PathBuf::from)
                .filter(|p| p.components().count() > 1 && p.is_file())
                .map(std::path::absolute)
                .unwrap_or(Err(e))
        })
        .expect("this test binary's path: current_exe failed and argv[0] names no file")
}
