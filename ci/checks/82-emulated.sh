#!/usr/bin/env bash
# The spawn library and the conformance suite on aarch64 (static musl) and armhf (32-bit ARM,
# Debian 12's glibc) on Debian's kernels under qemu-system full-system emulation
# (ci/emulate.sh): a real CLONE_VM|CLONE_VFORK, the hand-written aarch64 clone3 trampoline,
# and the 32-bit kernel struct layouts on a second architecture. Fails on any failed test, a
# program missing from a guest's log, or a report that breaks the schema.
#
# Cut for CI's 90 minutes on 2 cores (TCG runs the suite ~10x slower than this machine): only
# the test binaries of the spawn library and the suite are built and run. bench, fuzz and
# reliability are timing and stress runs (under TCG they measure the emulator); bad_input,
# matrix_cli and the tool's unit tests check parsing and rendering, which no CPU changes.
# `bash ci/emulate.sh` with no --tests runs them all; `--save` refreshes the stored reports.
# Measured here (2 cores shared with other builds): boot + run 198 s (aarch64) and 260 s
# (armhf); the selected test builds from scratch took 7.4 min (aarch64, with the host build
# scripts) and 5 min (armhf) under a load average of ~15, 31 s and 48 s when incremental.
#
# No probe here (--no-probe): the conformance binary runs the same cases against the same
# expectations, and the probe repeated them for 105 s (aarch64) and 136 s (armhf). Its report
# schema is checked on the kernel guests (83-kernels); the stored arm reports come from
# `bash ci/emulate.sh --save`.
emulate_out=$(mktemp -d)
bash ci/emulate.sh --out "$emulate_out" --no-probe \
  --tests spawn,conformance,lib-spawnmatrix_spawn,std_parity,beyond_std \
  aarch64 armhf
# A smoke on the other guests, spawn tests only and no probe (their full runs are stored
# reports: ci/README.md). s390x by default: big-endian, clone's swapped first two arguments
# and its own clone3 trampoline, none of which the two guests above have. Measured here with
# 2 cores shared by five sessions (load ~10): build 142 s (incremental; a cold target build
# is minutes more), boot + spawn 344 s (227 passed); ppc64el and riscv64 are about as slow
# (ci/README.md), so all three add ~20 min warm to the run. SPAWNMATRIX_EMULATED_SMOKE names
# the guests ("" for none); each test binary's budget is 900 s, ~2.6x the measured 332 s.
smoke=${SPAWNMATRIX_EMULATED_SMOKE-s390x}
if [ -n "$smoke" ]; then
  # shellcheck disable=SC2086 # a list of guest names
  bash ci/emulate.sh --out "$emulate_out" --tests spawn --no-probe --timeout 900 $smoke
fi
