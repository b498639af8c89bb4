#!/usr/bin/env bash
# The test suite and the probe on aarch64 (static musl) and armhf (32-bit, Debian's glibc),
# each on Debian's kernel under qemu-system full-system emulation (ci/emulate.sh). Fails on any
# failed test, a program missing from the guest's log, or a report that breaks the schema.
emulate_out=$(mktemp -d)
bash ci/emulate.sh --out "$emulate_out" aarch64 armhf
check-jsonschema --schemafile schema/report.v1.schema.json "$emulate_out"/*/files/*.json
