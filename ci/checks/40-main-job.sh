#!/usr/bin/env bash
# The README's main job (spawnmatrix with no arguments) writes out/, prints one screen (what
# a person at the terminal reads; the full matrix stays in out/), and with --check fails when
# a case of this machine leaves its expectation; the reports and the matrix validate against
# schema/, and the page works in headless Chromium.
mkdir -p out
cargo run -q -- --check --out out >out/main-job.screen 2>out/main-job.stderr || { cat out/main-job.screen out/main-job.stderr; exit 1; }
cat out/main-job.screen
test -s out/matrix.json && test -s out/MATRIX.md && test -s out/index.html && test -s out/report.json && test -s out/summary.json
lines=$(wc -l <out/main-job.screen)
if [ "$lines" -gt 40 ] || ! grep -q 'index.html' out/main-job.screen; then
    echo "40-main-job: the screen has $lines lines (at most 40) or does not say where the page is" >&2
    exit 1
fi

echo "-- reports and matrix.json validate against schema/"
shopt -s nullglob
reports=(targets/reports/*.json out/report.json)
shopt -u nullglob
# The schemas' $ids are their file names: run from schema/ so the cross-file $ref resolves to
# the sibling file (a validator with a registry of both schemas resolves it by $id).
(cd schema && check-jsonschema --schemafile report.v1.schema.json "${reports[@]/#/../}")
(cd schema && check-jsonschema --schemafile matrix.v1.schema.json ../out/matrix.json)

echo "-- index.html in headless Chromium at 1280 and 390 px (summary, filter, drill-down, URL state, screenshots)"
python3 ci/browser-test.py out/index.html out/index
# A fixture report that contradicts the glibc claims: the page must flag and explain it.
cargo run -q -- matrix tests/data/report-contradicting-docs.json --out out/disagreement
python3 ci/browser-test.py --expect-disagreement out/disagreement/index.html out/disagreement/index
