//! What adopting the library looks like: the `std::process` code below compiles unchanged
//! after one import.

use spawnmatrix_spawn::{Command, Stdio};

fn main() -> std::io::Result<()> {
    let output = Command::new("sh")
        .args(["-c", "echo hello"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()?;
    assert!(output.status.success(), "{:?}", output.status);
    assert_eq!(output.stdout, b"hello\n");
    // From std's own process tests. With the tool crate as the dependency, serde_json's
    // `PartialEq<Value>` impls made this ambiguous (E0283); the library has none.
    let stderr = output.stderr;
    assert_eq!(stderr, Vec::new());
    println!("downstream: spawned sh, read {:?}", "hello");
    // Set by build.rs from docs/spawnmatrix_caps.rs: glibc 2.17 has posix_spawn, not
    // addchdir_np (2.29).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    assert!(
        cfg!(spawnmatrix_have_posix_spawn)
            && !cfg!(spawnmatrix_have_posix_spawn_file_actions_addchdir_np)
    );
    println!(
        "downstream: build.rs caps: posix_spawn {}, addchdir_np {}",
        cfg!(spawnmatrix_have_posix_spawn),
        cfg!(spawnmatrix_have_posix_spawn_file_actions_addchdir_np)
    );
    Ok(())
}
