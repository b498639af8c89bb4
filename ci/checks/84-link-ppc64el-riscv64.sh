#!/usr/bin/env bash
# ppc64el and riscv64 in CI (issue 31): the spawn library's unit-test binary, cross-built and
# linked for powerpc64le-unknown-linux-gnu and riscv64gc-unknown-linux-gnu (cargo-zigbuild:
# zig links against glibc's stubs, as ci/emulate.sh does for these guests), and each
# executable checked to be an ELF of that machine. This links what a type-check cannot: the
# hand-written clone3 trampolines of both (global_asm!), the raw system-call numbers and the
# libc symbols each resolves. The guests themselves (ci/emulate.sh ppc64el riscv64: ~5 min of
# TCG each for the spawn tests alone, ci/README.md) stay on demand with their stored reports:
# CI's 60 minutes cannot hold them.
# Cost measured here (2 cores, load average ~18 from other sessions, nice 10, one job):
# ppc64el cold (the host's proc macros too) 76 s of CPU, 13 min of wall time under that load;
# riscv64 after it (proc macros built) 36 s of CPU (4.8 min of wall time). In .ci/run, 82-emulated's cross builds
# have built the host side already.
set -euo pipefail
start=$SECONDS
. ci/env.sh
bash ci/setup.sh pip
for spec in "powerpc64le-unknown-linux-gnu PowerPC64" "riscv64gc-unknown-linux-gnu RISC-V"; do
  read -r target machine <<<"$spec"
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
  build=$(mktemp)
  CARGO_PROFILE_DEV_DEBUG=false CARGO_PROFILE_TEST_DEBUG=false \
    cargo-zigbuild test --locked --no-run -p spawnmatrix-spawn --lib --target "$target" \
    --message-format=json-render-diagnostics >"$build"
  exe=$(python3 ci/emulate/results.py executables "$build" | awk '$1 == "test" {print $3; exit}')
  rm -f "$build"
  [ -n "$exe" ] || { echo "84-link: $target: cargo named no test executable" >&2; exit 1; }
  if ! command -v readelf >/dev/null; then
    echo "84-link: $target: linked $(basename "$exe"); no readelf (binutils) here, its machine is not checked"
    continue
  fi
  got=$(readelf -h "$exe" | sed -n 's/^ *Machine: *//p')
  case $got in
    *"$machine"*) echo "84-link: $target: linked $(basename "$exe") ($got)" ;;
    *) echo "84-link: $target: $exe is a '$got' executable, not $machine" >&2; exit 1 ;;
  esac
  bash ci/disk.sh prune
done
echo "84-link: done in $((SECONDS - start)) s"
