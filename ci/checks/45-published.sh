#!/usr/bin/env bash
# The committed summary (docs/SUMMARY.md, docs/summary.json, docs/CHANGES.md) and compile-time
# caps (docs/spawnmatrix_caps.{h,rs}) are what `spawnmatrix publish` makes of targets/ now:
# fails when a stored report, a platform.yaml or targets/baselines.yaml changed without it.
# A second run must be byte-identical (the published files depend on targets/ only), and
# summary.json (and baselines.yaml) must validate against their JSON Schemas with a standard
# validator, check-jsonschema, which must also reject a copy with a broken version.
# summary.json names the tree it was made from: in a git checkout whose targets/ is committed,
# generated_from.targets_tree must be `git rev-parse HEAD:targets`.
set -euo pipefail
start=$SECONDS
. ci/env.sh
cargo run -q -- publish --check
if git rev-parse --git-dir >/dev/null 2>&1 && [ -z "$(git status --porcelain -- targets)" ]; then
    want=$(git rev-parse HEAD:targets)
    got=$(sed -n 's/^"generated_from": {"targets_tree":"\([0-9a-f]*\)".*/\1/p' docs/summary.json)
    if [ "$want" != "$got" ]; then
        echo "45-published: docs/summary.json says it was made from targets tree ${got:-?}, HEAD:targets is $want" >&2
        exit 1
    fi
else
    echo "45-published: not a clean git checkout of targets/; the generated_from check is skipped"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Two releases made from nothing at the same (reproducible) time are the same bytes.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date +%s)}
cargo run -q -- publish --out "$tmp/a" >/dev/null
cargo run -q -- publish --out "$tmp/b" >/dev/null
for f in SUMMARY.md summary.json CHANGES.md spawnmatrix_caps.h spawnmatrix_caps.rs; do
    cmp "$tmp/a/$f" "$tmp/b/$f"
done
# The schemas' $ids are their file names: run from schema/ so the cross-file $ref resolves.
(cd schema && check-jsonschema --schemafile summary.v1.schema.json ../docs/summary.json)
(cd schema && check-jsonschema --schemafile baselines.v1.schema.json ../targets/baselines.yaml)
sed 's/^"data_version": "[^"]*"/"data_version": "one"/' docs/summary.json > "$tmp/broken.json"
if (cd schema && check-jsonschema --schemafile summary.v1.schema.json "$tmp/broken.json") >/dev/null 2>&1; then
    echo "45-published: the summary schema accepted a data_version that is not semver" >&2
    exit 1
fi
# docs/KERNELS.md is the kernel guests' stored reports as a page (ci/emulate/kernels.py
# table): a report saved without regenerating it fails here (under a second).
python3 ci/emulate/kernels.py table targets/reports/kernel-*-x86_64-linux-gnu.json --check docs/KERNELS.md
echo "45-published: ok in $((SECONDS - start)) s"
