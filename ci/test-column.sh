#!/usr/bin/env bash
# `cargo test` of one workflow column off Linux, the only way its job runs it (after the
# report was uploaded, so a failing or slow test run cannot lose the column):
#
#   ci/test-column.sh COLUMN        COLUMN: macos-15 macos-15-intel freebsd cygwin
#
# Same build settings as ci/probe-column.sh (ci/column.sh). Cygwin: the pinned nightly with
# -Zbuild-std and the helpers ci/probe-column.sh built; its load tests make a tenth of the
# spawns (SPAWN_DIVISOR in tests/reliability/load.rs: Cygwin's fork is emulated). Every test
# binary runs whatever failed before it (--no-fail-fast), so one failure hides no other; in
# the FreeBSD VM under a time limit shorter than the job's (ci/column.sh). No options.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 1 ] || { sed -n '5p' "$0" >&2; exit 2; }
column=$1
# shellcheck source=ci/column.sh
. ci/column.sh
${test_limit[@]+"${test_limit[@]}"} "${cargo_cmd[@]}" test ${build_std[@]+"${build_std[@]}"} --locked --no-fail-fast
