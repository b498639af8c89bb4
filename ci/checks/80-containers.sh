#!/usr/bin/env bash
# The workflow's Linux jobs, here: every Debian column through ci/linux-column.sh, the one
# command the workflow's `containers` job runs per column (alpine needs a registry), each under
# Docker's default seccomp profile. Then the workflow's merge step on those reports
# (ci/merge.sh): `spawnmatrix diff` against the stored reports must find no regression, so the
# stored container reports agree with what the jobs produce. Then the two host musl columns
# (not workflow jobs). The i686 columns are left to ci/checks/45-i686.sh's tests (their stored
# reports come from a full run of ci/containers.sh).
# The musl columns are built in the dev profile (--dev), which reuses 20-musl-tests' builds:
# this step checks that they build, probe and report; their stored reports, with release
# timings, come from the full run. Measured: the two release builds took 165 s and 171 s.
start=$SECONDS
rm -rf results/reports
bash ci/linux-column.sh bullseye bookworm trixie sid
(cd schema && check-jsonschema --schemafile report.v1.schema.json ../results/reports/*.json)
site=$(mktemp -d)
bash ci/merge.sh results "$site"
echo "80-containers: four Debian columns under Docker's seccomp profile, diffed, in $((SECONDS - start)) s"
musl_out=$(mktemp -d)
bash ci/containers.sh --no-containers --no-i686 --dev --out "$musl_out"
(cd schema && check-jsonschema --schemafile report.v1.schema.json "$musl_out"/*.json)
echo "80-containers: done in $((SECONDS - start)) s"
