#!/usr/bin/env bash
# Test suites in a root shaped like FreeBSD's file system where the tests could trip: no /proc
# mounted (so no /proc/self/fd, and /dev/fd, a link into /proc, leads nowhere) and no
# /bin/true (`true` only in /usr/local/bin, which is on PATH). The closest this Linux machine
# gets to the workflow's FreeBSD VM; not in .ci/run (ci/checks/15-test-paths.sh is the static
# check), run it after changing how tests find programs or fds:
#
#   ci/no-proc-root.sh [TEST...]        (default: spawn conformance)
#
# Builds the test binaries here, copies the cached debootstrap root of Debian trixie (glibc
# 2.41, newer than the build machine's 2.36, so the host's binaries run in it; ci/containers.sh
# trixie makes it) to a temporary directory, moves `true`, and runs each binary with chroot in
# a private mount namespace that binds only this checkout in (at its own path, so the paths compiled
# into the tests hold). Prints each binary's libtest summary; exits non-zero if one fails.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(spawn conformance)
cache=${SPAWNMATRIX_CACHE:-/var/cache/spawnmatrix}
base=$cache/roots/trixie
[ -f "$base/.spawnmatrix-complete" ] || { echo "no-proc-root: no $base (run ci/containers.sh trixie once)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "no-proc-root: chroot and mount need root" >&2; exit 2; }

args=()
for t in "${tests[@]}"; do args+=(--test "$t"); done
bins=()
while IFS= read -r b; do bins+=("$b"); done < <(
  cargo test --no-run --locked "${args[@]}" --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])')
[ ${#bins[@]} = "${#tests[@]}" ] || { echo "no-proc-root: built ${#bins[@]} binaries for ${#tests[@]} tests" >&2; exit 1; }

root=$(mktemp -d /var/tmp/spawnmatrix-no-proc.XXXXXX)
trap 'rm -rf --one-file-system "$root"' EXIT
cp -a "$base/." "$root/"
mkdir -p "$root/usr/local/bin" "$root$repo"
mv "$root/usr/bin/true" "$root/usr/local/bin/true"
rm -f "$root/bin/true"
[ ! -e "$root/bin/true" ] && [ ! -e "$root/usr/bin/true" ] && [ -z "$(ls -A "$root/proc")" ] \
  || { echo "no-proc-root: the root still has /bin/true or a /proc" >&2; exit 1; }

status=0
for bin in "${bins[@]}"; do
  echo "== ${bin#"$repo"/} in $root (no /proc, true only in /usr/local/bin)"
  # A private mount namespace: the bind mount ends with it, nothing leaks to the host.
  unshare --mount --propagation private -- sh -c '
    mount --bind "$1" "$2$1" && cd "$2$1" && exec chroot "$2" sh -c "
      test ! -e /proc/self || { echo /proc is mounted >&2; exit 1; }
      cd \"\$0\" && exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root TMPDIR=/tmp \
        CARGO_MANIFEST_DIR=\"\$0\" \"\$1\"
    " "$1" "$3"' sh "$repo" "$root" "$bin" || status=1
done
exit $status
