#!/usr/bin/env bash
# Every committed Cargo.lock resolves as it is (--locked): the workspace's, fuzz/'s (its own
# workspace, on the nightly in ci/nightly-toolchain) and tests/downstream's. .ci/run runs this
# before anything builds, so no later cargo command rewrites a lockfile (56-parser-fuzz once
# added sha1_smol to fuzz/Cargo.lock on every run); ci/clean-tree.sh then holds the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for lock in $(git ls-files '*Cargo.lock'); do
  dir=$(dirname "$lock")
  toolchain=()
  [ "$dir" = fuzz ] && toolchain=("+$(cat ci/nightly-toolchain)")
  if (cd "$dir" && cargo ${toolchain[@]+"${toolchain[@]}"} metadata --locked --format-version 1 >/dev/null); then
    echo "lockfiles: $lock resolves with --locked"
  else
    echo "lockfiles: $lock is stale: run \`cargo ${toolchain[*]} fetch\` in $dir (it adds only what is missing) and commit it" >&2
    status=1
  fi
done
exit $status
