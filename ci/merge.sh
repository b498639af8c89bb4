#!/usr/bin/env bash
# The workflow's merge job, runnable anywhere:
#
#   ci/merge.sh COLLECTED SITE
#
# Merges the stored reports (targets/reports) with the fresh ones the platform jobs uploaded
# (COLLECTED/reports/*.json; the folder is absent when every platform job failed, and then the
# page is the stored matrix alone) into SITE/ (matrix.json, MATRIX.md, index.html). Then gates:
# `spawnmatrix diff` of the stored-only matrix against the merged one, written to SITE/DIFF.md,
# exits 1 when a fresh report regresses a stored column (a capability gone, a case now
# failing), so the page is not published.
set -euo pipefail
[ $# = 2 ] || { sed -n '4p' "$0" >&2; exit 2; }
collected=$1 site=$2
cd "$(dirname "$0")/.."
sm() { cargo run --locked --quiet --bin spawnmatrix -- "$@"; }

shopt -s nullglob
fresh=("$collected"/reports/*.json)
shopt -u nullglob
echo "merge.sh: ${#fresh[@]} fresh report(s) in $collected/reports"
[ ${#fresh[@]} = 0 ] || printf '  %s\n' "${fresh[@]}"

stored=$(mktemp -d)
trap 'rm -rf "$stored"' EXIT
sm matrix targets/reports --out "$stored"
sm matrix targets/reports ${fresh[@]+"${fresh[@]}"} --out "$site"
echo "merge.sh: spawnmatrix diff (stored -> stored + fresh), also in $site/DIFF.md"
status=0
sm diff "$stored/matrix.json" "$site/matrix.json" >"$site/DIFF.md" || status=$?
cat "$site/DIFF.md"
exit $status
