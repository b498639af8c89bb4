#!/usr/bin/env bash
# One column's report, probed on the machine this runs on: the workflow's macOS, FreeBSD and
# Cygwin jobs (the Linux ones go through ci/containers.sh). Bash 3.2 is enough (macOS).
#
#   ci/probe.sh BIN NAME PROVENANCE IMAGE HOST
#
# Runs `BIN probe` with the conformance cases, the expectations of this checkout's targets/
# (SPAWNMATRIX_CASES and SPAWNMATRIX_TARGETS name them, so every verdict is judged against its
# recorded expectations) and the short bench of ci/env.sh, then writes results/reports/NAME.json
# (atomically: a failed probe leaves no report behind).
set -euo pipefail
[ $# = 5 ] || { sed -n '5p' "$0" >&2; exit 2; }
bin=$1 name=$2 provenance=$3 image=$4 host=$5
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
cd "$(dirname "$0")/.."
# shellcheck source=ci/env.sh
. ci/env.sh
export SPAWNMATRIX_CASES="$PWD/conformance/cases" SPAWNMATRIX_TARGETS="$PWD/targets"
mkdir -p results/reports
dest=results/reports/$name.json
"$bin" probe --json --bench "$ci_bench_sizes" --provenance "$provenance" --image "$image" \
  --host "$host" >"$dest.tmp"
mv "$dest.tmp" "$dest"
echo "probe.sh: $dest"
