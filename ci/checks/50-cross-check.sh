#!/usr/bin/env bash
# Type-checks for the platforms that cannot run here (they run in the GitHub workflow).
# Each group is one cargo run with several --target flags: the host's build scripts and proc
# macros build once, and the targets' crates share both cores (one run per target left a
# core idle at each target's serial tail: 513 s in all, measured in a whole .ci/run).
echo "-- x86_64-unknown-freebsd x86_64-apple-darwin aarch64-apple-darwin"
cargo check --locked --target x86_64-unknown-freebsd --target x86_64-apple-darwin --target aarch64-apple-darwin
bash ci/disk.sh prune

# The optional event-loop adapters where the exit notifier is a kqueue (macOS, FreeBSD).
echo "-- x86_64-apple-darwin x86_64-unknown-freebsd (spawnmatrix-spawn --features tokio,async-io)"
cargo check --locked --target x86_64-apple-darwin --target x86_64-unknown-freebsd \
  -p spawnmatrix-spawn --features tokio,async-io --tests

# Every other Unix std supports, the library only (the tool needs a C toolchain per target):
# each has its facts in spawn/src/platform/. Tier 2 targets with rustup's std; Windows and wasm, where
# the crate re-exports std::process, so one import still compiles everywhere.
# The Unix ones with the library's tests too, so a test that names a Linux-only libc item
# shows here.
echo "-- x86_64-unknown-netbsd x86_64-unknown-illumos aarch64-linux-android (spawnmatrix-spawn --lib --tests)"
cargo check --locked --target x86_64-unknown-netbsd --target x86_64-unknown-illumos \
  --target aarch64-linux-android -p spawnmatrix-spawn --lib --tests
echo "-- x86_64-pc-windows-gnu wasm32-unknown-unknown (spawnmatrix-spawn)"
cargo check --locked --target x86_64-pc-windows-gnu --target wasm32-unknown-unknown -p spawnmatrix-spawn
bash ci/disk.sh prune

# FreeBSD's close_range (12.2+) is looked up at run time, so a binary loads on older releases:
# the library's object must not reference the symbol. (An rlib builds without a linker.)
echo "-- x86_64-unknown-freebsd: no direct reference to close_range"
cargo build --locked --target x86_64-unknown-freebsd -p spawnmatrix-spawn --lib
rlib=target/x86_64-unknown-freebsd/debug/libspawnmatrix_spawn.rlib
undefined=$(nm -u "$rlib" 2>/dev/null || true)
grep -q 'U dlsym' <<<"$undefined" || { echo "nm found no undefined dlsym: the check reads nothing"; exit 1; }
if grep -qw 'close_range' <<<"$undefined"; then
  echo "spawnmatrix-spawn references close_range directly: it must be looked up (spawn/src/platform/freebsd.rs)"
  exit 1
fi

nightly=$(cat ci/nightly-toolchain)
echo "-- Cygwin (tier 3: $nightly from ci/nightly-toolchain, -Zbuild-std)"
# Type-check only (nothing links or runs for Cygwin here); the workflow's Cygwin job builds,
# probes and runs `cargo test` with the same nightly. Tests and benches are included so that a
# Cygwin type error shows here first.
cargo "+$nightly" check --locked -Zbuild-std=std,panic_abort --target x86_64-pc-cygwin --all-targets

# The kernel's struct sigaction layouts this crate declares (spawn/src/sys/kernel_sigaction/,
# each with compile-time size and offset assertions), on architectures that cannot run here:
# MIPS n64 and o32 (flags first, 128 signals), SPARC (restorer as an extra syscall argument),
# riscv (no restorer). The spawn package only: libc is its one dependency.
# x32 (x86_64 instructions, 32-bit pointers): the clone3 trampoline zero-extends its operands
# there (this kernel has no CONFIG_X86_X32_ABI, so it is type-checked only).
# 32-bit SPARC: the id system calls must be the 32-bit ones (setuid32, ...; the old numbers
# take 16-bit ids there); spawn/src/child_side/ids/linux.rs pins the numbers at compile time.
# OpenBSD, DragonFly and Solaris: tier 3, or no std from rustup here (Solaris), so std is
# built from source like the architectures above.
targets=()
for t in mips64-unknown-linux-gnuabi64 mips-unknown-linux-gnu sparc64-unknown-linux-gnu sparc-unknown-linux-gnu riscv64gc-unknown-linux-gnu x86_64-unknown-linux-gnux32 \
         x86_64-unknown-openbsd x86_64-unknown-dragonfly x86_64-pc-solaris; do
  targets+=(--target "$t")
done
echo "-- ${targets[*]} (spawnmatrix-spawn, $nightly, -Zbuild-std)"
cargo "+$nightly" check --locked -Zbuild-std=std,panic_abort "${targets[@]}" -p spawnmatrix-spawn
