//! Which architectures the spawn crate has a clone3 trampoline for (its
//! `src/platform/clone3/`), for tests whose expected outcome depends on it.

/// x86_64, aarch64, s390x, riscv64, and little-endian powerpc64 when built with Rust 1.95 or
/// later (stable PowerPC inline assembly: `spawn/build/clone3.rs`), as this workspace is.
pub const CLONE3_TRAMPOLINE: bool = cfg!(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "s390x",
    target_arch = "riscv64",
    all(target_arch = "powerpc64", target_endian = "little")
));
