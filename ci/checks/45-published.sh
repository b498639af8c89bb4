#!/usr/bin/env bash
# The committed summary (docs/SUMMARY.md, docs/summary.json) and compile-time caps
# (docs/spawnmatrix_caps.{h,rs}) are what `spawnmatrix publish`
# makes of targets/ now: fails when a stored report or a platform.yaml changed without it.
# A second run must be byte-identical (the published files depend on targets/ only).
cargo run -q -- publish --check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cargo run -q -- publish --out "$tmp/a" >/dev/null
cargo run -q -- publish --out "$tmp/b" >/dev/null
cmp "$tmp/a/SUMMARY.md" "$tmp/b/SUMMARY.md"
cmp "$tmp/a/summary.json" "$tmp/b/summary.json"
cmp "$tmp/a/spawnmatrix_caps.h" "$tmp/b/spawnmatrix_caps.h"
cmp "$tmp/a/spawnmatrix_caps.rs" "$tmp/b/spawnmatrix_caps.rs"
