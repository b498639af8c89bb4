#!/usr/bin/env bash
# docs/spawnmatrix_caps.h against every stored link column (targets/reports/link-*.json): zig
# cc preprocesses and compiles it for the column's sysroot, and each SPAWNMATRIX_HAVE_<X> must
# equal that column's link evidence (musl has no version macro: the header must claim nothing
# there). A column zig cannot compile for fails the check, labelled. Then a negative control:
# the same check of a copy whose glibc addchdir_np boundary moved from 2.29 to 2.30 must fail.
cargo run -q -- caps-header --check-sysroots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/\(HAVE_POSIX_SPAWN_FILE_ACTIONS_ADDCHDIR_NP (SPAWNMATRIX_VERSION >= \)2029)/\12030)/' \
  docs/spawnmatrix_caps.h >"$tmp/moved.h"
if cmp -s docs/spawnmatrix_caps.h "$tmp/moved.h"; then
  echo "46-caps-header: the negative control found no boundary to move" >&2
  exit 1
fi
if cargo run -q -- caps-header --check-sysroots --only linux-gnu --header "$tmp/moved.h" >"$tmp/out"; then
  echo "46-caps-header: a header with a moved boundary passed the check" >&2
  exit 1
fi
grep -q '^FAIL link-x86_64-linux-gnu.2.29.json' "$tmp/out"
echo "negative control: the moved boundary fails at glibc 2.29, as it must"
