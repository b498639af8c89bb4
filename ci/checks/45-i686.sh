#!/usr/bin/env bash
# 32-bit x86, natively (an x86_64 kernel runs i686 programs): the library's unit tests and its
# parent-state table (ids through the 32-bit id calls), the
# spawn suite, the sandbox/rlimit profiles and the conformance suite on glibc (gcc-multilib)
# and on Rust's bundled musl (helper built by the pinned zig). These are the test targets
# where word size matters: the kernel structs the crate declares (struct sigaction is 20 bytes
# here, not 16), the signal sets, the clone paths without a clone3 trampoline (clone_vfork's
# CLONE_PIDFD through glibc's 32-bit clone wrapper: spawn/tests/pidfd.rs). The other test
# targets (matrix, CLI, reports, bench) process data the same way on every word size and run
# on x86_64 in `cargo test`; leaving them out keeps this step's build short.
for t in i686-unknown-linux-gnu i686-unknown-linux-musl; do
  echo "-- $t"
  cargo test --locked --target "$t" -p spawnmatrix-spawn --lib --test parent_untouched --test pidfd --test fake_vfork
  # The profiles' recorded rows are left out on i686: their valgrind profile runs the observer
  # under the host's valgrind, which exits 1 for an i686 binary here (it lacks the 32-bit
  # tool). They run on x86_64 in `cargo test` and in 47-sandbox-profiles.
  cargo test --locked --target "$t" -p spawnmatrix --lib --test spawn --test profiles --test conformance -- --skip recorded::recorded_rows
done
