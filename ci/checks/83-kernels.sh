#!/usr/bin/env bash
# The oldest and the newest kernel guests (ci/emulate.sh linux-5.10 and linux-7.3: Debian 11's
# 5.10 and experimental's 7.3, x86_64 under QEMU, this machine's build and glibc): the caps
# probes and their release check (lib-spawnmatrix_spawn, kernel_releases: a documented first
# release the kernel contradicts fails), strace's view of which call made each strategy's
# child (mechanism), the 7.1 options on both sides of their fallback (no_new_privs,
# kill_on_parent_death, spawn_detached: clone3's CLONE_NNP, CLONE_PIDFD_AUTOKILL and
# CLONE_AUTOREAP on 7.3, prctl, PR_SET_PDEATHSIG and the reaper thread on 5.10; ~17 s of TCG
# per guest and ~20 s to build the three), and the probe with the sandbox profiles. Each
# guest's report must then equal this machine's in every case outcome, sandbox row and libc capability, and Auto must
# take the strategy the docs predict for that kernel (ci/emulate/kernels.py compare).
#
# Cut for CI's budget (~8 min for this step): the spawn and conformance test binaries and the
# bench run in the stored full runs (ci/README.md: `bash ci/emulate.sh --save --tests ...
# linux-VER`), not here. Measured here with 2 cores shared by several sessions: the KVM test
# boot and the two guests (TCG) took ~3 min warm, the first download of both kernels ~1 min.
set -euo pipefail
start=$SECONDS
. ci/env.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tests=lib-spawnmatrix_spawn,mechanism,kernel_releases,no_new_privs,kill_on_parent_death,spawn_detached
bash ci/emulate.sh --out "$out" --tests "$tests" \
  --probe-args --sandbox --timeout 900 linux-5.10 linux-7.3
cargo run -q -- probe --json --sandbox >"$out/host.json"
status=0
for k in 5.10 7.3; do
  python3 ci/emulate/kernels.py compare "$out/linux-$k/files/kernel-$k-x86_64-linux-gnu.json" \
    "$out/host.json" --kernel-yaml targets/linux-kernel/kernel.yaml || status=1
done
check-jsonschema --schemafile schema/report.v1.schema.json "$out"/*/files/*.json
echo "83-kernels: done in $((SECONDS - start)) s"
exit $status
