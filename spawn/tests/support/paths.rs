// Paths a test needs that differ by host: this test binary's (to start it again) and `true`'s.
// Brought in by `include!` (not `mod`), so support/isolated.rs can use them wherever a test
// file declares that module (some declare it inside a function, where a nested `#[path]`
// would resolve elsewhere).

/// This test binary's path: `current_exe`, or, where that has nothing to read (Linux answers
/// it from /proc/self/exe, and a bare root or a FreeBSD-like system mounts no /proc),
/// `argv[0]` made absolute when it names a file, as cargo and ci/bare-root.sh start test
/// binaries by their path. A re-executing test so runs without /proc instead of skipping.
/// Panics, saying why, when neither has it.
#[allow(dead_code)] // Not every file that includes it calls it.
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

/// The first `true` on `PATH`, absolute: `/bin/true` on Linux, `/usr/bin/true` on macOS and
/// FreeBSD, `/usr/local/bin/true` in ci/bare-root.sh's root. Panics when there is none.
#[allow(dead_code)] // Not every file that includes it calls it.
fn true_program() -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
    std::env::split_paths(&path)
        .map(|dir| dir.join("true"))
        .find(|p| {
            std::fs::metadata(p)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .unwrap_or_else(|| panic!("no executable true on PATH ({path:?})"))
}
