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
    Ok(())
}
