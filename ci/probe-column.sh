#!/usr/bin/env bash
# The probe of one workflow column off Linux (macOS, FreeBSD, Cygwin), the only way its job
# runs it:
#
#   ci/probe-column.sh COLUMN        COLUMN: macos-15 macos-15-intel freebsd cygwin
#
# Builds spawnmatrix in release as the column needs (ci/column.sh; for Cygwin first the pinned
# nightly with rust-src, and the C child helpers with Cygwin's gcc), then ci/probe.sh: the conformance cases, this checkout's
# expectations and the short bench, into results/reports/ci-*.json. No options, so the job
# runs nothing of its own (ci/job-commands.py checks the workflow). Bash 3.2 is enough.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 1 ] || { sed -n '5p' "$0" >&2; exit 2; }
column=$1
# shellcheck source=ci/column.sh
. ci/column.sh
if [ "$column" = cygwin ]; then
  rustup toolchain install "$(cat ci/nightly-toolchain)" --profile minimal --component rust-src
fi
"${cargo_cmd[@]}" build ${build_std[@]+"${build_std[@]}"} --release --locked --bin spawnmatrix
if [ "$column" = cygwin ]; then
  mkdir -p helper
  gcc -O2 -std=c99 -o helper/spawnmatrix-child.exe conformance/child/spawnmatrix-child.c
  gcc -O2 -std=c99 -o helper/spawnmatrix-true.exe conformance/child/spawnmatrix-true.c
fi
bash ci/probe.sh "$bin" "$report" ci "$image" "$host"
