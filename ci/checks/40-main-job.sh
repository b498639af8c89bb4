#!/usr/bin/env bash
# The README's main job (spawnmatrix with no arguments) writes out/, and with --check fails
# when a case of this machine leaves its expectation; the reports and the matrix validate
# against schema/, and the page works in headless Chromium.
mkdir -p out
cargo run -q -- --check --out out >out/MATRIX.stdout.md 2>out/main-job.stderr || { cat out/main-job.stderr; exit 1; }
cat out/main-job.stderr
test -s out/matrix.json && test -s out/MATRIX.md && test -s out/index.html && test -s out/report.json

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
