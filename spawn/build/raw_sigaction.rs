//! Picks the kernel `struct sigaction` layout for the target (`src/sys/kernel_sigaction/`) and,
//! where one is known, sets `cfg(spawnmatrix_raw_sigaction)`: the spawn child then calls
//! `rt_sigaction` itself (`src/platform/sigaction_raw.rs`), because a `CLONE_VM` child must
//! not enter libc `sigaction` (musl's takes a lock).
//!
//! Layouts (the kernel's `include/linux/signal_types.h` with each arch's `asm/signal.h`):
//! - `restorer`: handler, flags, restorer, mask (`__ARCH_HAS_SA_RESTORER`: x86, arm, aarch64,
//!   powerpc, s390, m68k, sparc);
//! - `no_restorer`: handler, flags, mask (asm-generic without `SA_RESTORER`: riscv, loongarch);
//! - `mips`: flags (`unsigned int`), handler, mask of 128 signals (`__ARCH_HAS_IRIX_SIGACTION`).
//!
//! An architecture not listed gets no raw path: the clone strategies are then unavailable, so
//! no `CLONE_VM` child ever calls libc `sigaction` (see `src/strategies/clone_vm/mod.rs`).

use crate::target::Target;

/// The layout name for a `CARGO_CFG_TARGET_ARCH`, if this crate knows it.
fn layout(arch: &str) -> Option<&'static str> {
    Some(match arch {
        "x86" | "x86_64" | "arm" | "aarch64" | "powerpc" | "powerpc64" | "s390x" | "m68k"
        | "sparc" | "sparc64" => "restorer",
        "riscv32" | "riscv64" | "loongarch64" => "no_restorer",
        "mips" | "mips64" | "mips32r6" | "mips64r6" => "mips",
        _ => return None,
    })
}

pub fn decide(target: &Target) {
    println!("cargo::rustc-check-cfg=cfg(spawnmatrix_raw_sigaction)");
    println!(
        "cargo::rustc-check-cfg=cfg(spawnmatrix_kernel_sigaction, \
         values(\"restorer\", \"no_restorer\", \"mips\"))"
    );
    if !matches!(target.os.as_str(), "linux" | "android") {
        return;
    }
    if let Some(layout) = layout(&target.arch) {
        println!("cargo:rustc-cfg=spawnmatrix_kernel_sigaction=\"{layout}\"");
        println!("cargo:rustc-cfg=spawnmatrix_raw_sigaction");
    }
}
