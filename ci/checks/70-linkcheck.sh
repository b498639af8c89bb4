#!/usr/bin/env bash
# C probes link against macOS and FreeBSD sysroots; the stored link reports are current, and
# none is stored for a sysroot linkcheck refuses (no executable links: FreeBSD 13.1).
linkcheck_out=$(mktemp -d)
cargo run -q -- linkcheck --require-zig --only macos --only freebsd --out "$linkcheck_out"
python3 ci/compare-reports.py "$linkcheck_out" targets/reports \
  --scope 'link-*-macos.*.json' --scope 'link-*-freebsd.*.json'
