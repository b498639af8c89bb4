#!/usr/bin/env bash
# CI's disk budget. CI machines vary in free space (one CI run ran out of disk in its fourth
# step, building the musl tests), and the checks build the workspace for some twenty targets.
# Build outputs that only one step uses are rebuilt cheaply by any later step that needs them,
# so when space runs low they are the first to go.
#
#   ci/disk.sh free             free space under the checkout, in MiB
#   ci/disk.sh prune [MIN_GIB]  when less than MIN_GIB (default $SPAWNMATRIX_MIN_FREE_GIB, else
#                               10) is free, delete the per-target build folders
#                               (target/TRIPLE/), incremental caches, the fuzz build and the
#                               emulated guests' builds; print what that freed
set -euo pipefail
cd "$(dirname "$0")/.."
free_mib() { df -Pm . | awk 'NR == 2 {print $4}'; }
case ${1:-} in
  free) free_mib ;;
  prune)
    min_gib=${2:-${SPAWNMATRIX_MIN_FREE_GIB:-10}}
    before=$(free_mib)
    [ "$before" -lt $((min_gib * 1024)) ] || exit 0
    # A target folder holds a CACHEDIR.TAG; its per-triple children are the folders that hold
    # a debug/ or release/ of their own (target/debug itself is the host's, kept).
    doomed=()
    for d in target/*/; do
      d=${d%/}
      case ${d#target/} in debug|release|doc|tmp|package) continue ;; esac
      if [ -d "$d/debug" ] || [ -d "$d/release" ]; then doomed+=("$d"); fi
    done
    for d in target/debug/incremental target/release/incremental fuzz/target out/emulate; do
      [ ! -d "$d" ] || doomed+=("$d")
    done
    [ ${#doomed[@]} -gt 0 ] || { echo "disk: ${before} MiB free, below ${min_gib} GiB, nothing to prune"; exit 0; }
    rm -rf "${doomed[@]}"
    echo "disk: ${before} MiB free, below ${min_gib} GiB: pruned ${doomed[*]}; now $(free_mib) MiB free"
    ;;
  *) echo "usage: ci/disk.sh free | prune [MIN_GIB]" >&2; exit 2 ;;
esac
