#!/usr/bin/env bash
# The spawn library, the conformance suite and the probe on aarch64 (static musl) and armhf
# (32-bit, Debian's glibc), each on Debian's kernel under qemu-system full-system emulation
# (ci/emulate.sh). Fails on any failed test, a program missing from the guest's log, or a
# report that breaks the schema.
#
# Cut for CI's time (TCG runs the suite ~10x slower than this machine): bench, fuzz and
# reliability are timing and stress runs (under TCG they measure the emulator), and
# bad_input, matrix_cli and bin-spawnmatrix test parsing and rendering, which no CPU changes;
# `bash ci/emulate.sh` runs them all.
emulate_out=$(mktemp -d)
bash ci/emulate.sh --out "$emulate_out" \
  --tests spawn,conformance,lib-spawnmatrix_spawn,std_parity,beyond_std,lib-spawnmatrix,child_helper,probe,schema_sync \
  aarch64 armhf
check-jsonschema --schemafile schema/report.v1.schema.json "$emulate_out"/*/files/*.json
