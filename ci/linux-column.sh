#!/usr/bin/env bash
# One or more Linux columns, exactly as the workflow's `containers` job runs each of them (one
# column there) and as .ci/run runs them here (ci/checks/80-containers.sh, every Debian column):
#
#   ci/linux-column.sh COLUMN...        COLUMN: bullseye bookworm trixie sid alpine
#
# Installs the Python tools (zig, cargo-zigbuild), then ci/containers.sh for the containers
# only (no host musl or i686 columns: GitHub's runner has neither the i686 std nor
# gcc-multilib), each under Docker's default seccomp profile, writing
# results/reports/container-*.json. It takes no options, so the workflow cannot run anything
# the local check does not (ci/job-commands.py checks that). What differs is what the machine
# forces: on GitHub Actions (GITHUB_ACTIONS=true) the images are built FROM the registry
# (--pull) and run by docker; here, without a registry, each Debian image is a debootstrap
# root with the same Containerfile on top, run by podman with runc (alpine needs a registry).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { sed -n '5p' "$0" >&2; exit 2; }
for c in "$@"; do
  case $c in
    bullseye|bookworm|trixie|sid|alpine) ;;
    *) echo "linux-column.sh: unknown column $c (${0##*/} takes no options)" >&2; exit 2 ;;
  esac
done
bash ci/setup.sh pip
source_flag=()
if [ "${GITHUB_ACTIONS:-}" = true ]; then
  source_flag=(--pull)
  export SPAWNMATRIX_ENGINE=docker
  export SPAWNMATRIX_HOST="GitHub Actions ${ImageOS:-ubuntu} ${ImageVersion:-}"
fi
exec bash ci/containers.sh --no-musl --no-i686 ${source_flag[@]+"${source_flag[@]}"} --out results/reports "$@"
