//! Sets `cfg(spawnmatrix_raw_sigaction)` where the spawn child calls `rt_sigaction` itself
//! (`src/os/sigaction_raw.rs`): Linux, whose `CLONE_VM` children must not enter libc
//! `sigaction` (musl's takes a lock). Not on MIPS, whose kernel `struct sigaction` puts the
//! flags first, nor SPARC, whose system call takes one more argument; those use libc's.

use crate::target::Target;

pub fn decide(target: &Target) {
    println!("cargo::rustc-check-cfg=cfg(spawnmatrix_raw_sigaction)");
    let linux = matches!(target.os.as_str(), "linux" | "android");
    let odd_layout = target.arch.starts_with("mips") || target.arch.starts_with("sparc");
    if linux && !odd_layout {
        println!("cargo:rustc-cfg=spawnmatrix_raw_sigaction");
    }
}
