#!/usr/bin/env bash
# Probe in Debian bullseye and trixie (debootstrap + podman) and both musl columns.
containers_out=$(mktemp -d)
bash ci/containers.sh --out "$containers_out" bullseye trixie
check-jsonschema --schemafile schema/report.v1.schema.json "$containers_out"/*.json
