#!/usr/bin/env bash
# The spawn library's tests where `pidfd_spawn` really exists: glibc 2.39 or later, in the
# trixie (2.41) and sid containers. The build machine's glibc may lack it (bookworm's 2.36
# does), and there the pidfd tests of the posix_spawn strategy skip; here they must run.
#
# Every test binary of `cargo test -p spawnmatrix-spawn --all-features` is built on this host
# (a newer glibc runs what an older one linked) and run in each image, with this checkout
# mounted at its own path (the tests find files through CARGO_MANIFEST_DIR), as root with
# CAP_SYS_ADMIN and no seccomp filter, so the namespace tests (no /proc, a /proc of another
# pid namespace) run too. Doctests are left to the host's `cargo test`. Before anything runs,
# each container must show `pidfd_spawn` in its libc, or the check fails: a column that
# cannot run what it is for is never a silent pass. The images are the ones
# ci/checks/80-containers.sh made; missing ones are made with `ci/containers.sh --images-only`.
# Two tests need build tools the images do not carry (cc for no_libc_in_child's interposer,
# objdump for the hard-link check) and are skipped here; the host's `cargo test` runs them.
# Bounded: each binary gets SPAWNMATRIX_PIDFD_TIMEOUT seconds (default 600).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
suites=(trixie sid)
limit=${SPAWNMATRIX_PIDFD_TIMEOUT:-600}
start=$SECONDS

engine=(podman --runtime runc)
command -v podman >/dev/null 2>&1 || { echo "81-pidfd-spawn: no podman (ci/setup.sh)" >&2; exit 1; }
command -v runc >/dev/null 2>&1 || engine=(podman)
image() { echo "localhost/spawnmatrix/debian:$1"; }
missing=()
for s in "${suites[@]}"; do
  "${engine[@]}" image exists "$(image "$s")" || missing+=("$s")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "-- images for ${missing[*]}: ci/containers.sh --images-only"
  bash ci/containers.sh --images-only "${missing[@]}"
fi

bins=()
while IFS= read -r b; do bins+=("$b"); done < <(
  cargo test --no-run --locked -p spawnmatrix-spawn --all-features --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])')
[ ${#bins[@]} -gt 0 ] || { echo "81-pidfd-spawn: no test binary was built" >&2; exit 1; }
echo "-- ${#bins[@]} test binaries of spawnmatrix-spawn (--all-features)"

# Limits at or below the hard ones (raising them needs CAP_SYS_RESOURCE), as containers.sh.
hn=$(ulimit -Hn); [ "$hn" = unlimited ] && hn=20000; [ "$hn" -gt 20000 ] && hn=20000
hu=$(ulimit -Hu); [ "$hu" = unlimited ] && hu=4096; [ "$hu" -gt 4096 ] && hu=4096
skips=(--skip children_call_no_libc_function --skip no_newer_spawn_symbol_is_linked_hard)
run() { # suite, then the command; an engine error (125: another job rebuilding the image,
  # say) is retried once
  local suite=$1 rc=0; shift
  engine_run "$suite" "$@" || rc=$?
  if [ $rc = 125 ]; then sleep 5; rc=0; engine_run "$suite" "$@" || rc=$?; fi
  return $rc
}
engine_run() {
  local suite=$1; shift
  "${engine[@]}" run --rm --network=none --ulimit "nofile=1024:$hn" --ulimit "nproc=$hu:$hu" \
    --cap-add SYS_ADMIN --security-opt seccomp=unconfined \
    -v "$repo:$repo" -w "$repo/spawn" -e "CARGO_MANIFEST_DIR=$repo/spawn" \
    "$(image "$suite")" "$@"
}

status=0
for s in "${suites[@]}"; do
  t0=$SECONDS
  glibc=$(run "$s" ldd --version | sed -n 1p)
  # The libc must have pidfd_spawn, or this column tests nothing it is for.
  # shellcheck disable=SC2016 # expanded by the container's sh
  if ! run "$s" sh -c 'for f in /lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libc.so.6; do
      [ -e "$f" ] && grep -q pidfd_spawn "$f" && exit 0; done; exit 1'; then
    echo "81-pidfd-spawn: $s ($glibc) has no pidfd_spawn" >&2
    status=1
    continue
  fi
  passed=0
  for b in "${bins[@]}"; do
    name=${b##*/}
    # Under sh, not as the container's pid 1: sid's timeout (coreutils 9.10) exits 125 there.
    # shellcheck disable=SC2016 # expanded by the container's sh
    if out=$(run "$s" sh -c 'timeout "$@"' sh "$limit" "$b" --test-threads=2 --nocapture "${skips[@]}" 2>&1); then
      passed=$((passed + $(printf '%s\n' "$out" | awk '/^test result: ok\./ {n += $4} END {print n + 0}')))
      case $name in pidfd-*) printf '%s\n' "$out" | grep -E '^test pidfd_spawn|reaped before' || true ;; esac
      # The pidfd tests say this where the libc lacks pidfd_spawn: here it must not appear.
      if printf '%s\n' "$out" | grep -q 'no pidfd_spawn in this libc'; then
        echo "81-pidfd-spawn: $s: $name did not find pidfd_spawn" >&2
        status=1
      fi
    else
      printf '%s\n' "$out" | tail -n 40
      echo "81-pidfd-spawn: $s: $name failed (or passed its ${limit} s)" >&2
      status=1
    fi
  done
  echo "-- $s ($glibc): $passed tests passed in ${#bins[@]} binaries, $((SECONDS - t0)) s"
done
echo "81-pidfd-spawn: done in $((SECONDS - start)) s"
exit $status
