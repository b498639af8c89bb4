#!/usr/bin/env bash
# Probe in Debian bullseye and trixie (debootstrap + podman) and both musl columns. The i686
# columns are left to ci/checks/45-i686.sh's tests (their stored reports come from a full run).
containers_out=$(mktemp -d)
bash ci/containers.sh --no-i686 --out "$containers_out" bullseye trixie
check-jsonschema --schemafile schema/report.v1.schema.json "$containers_out"/*.json
