# shellcheck shell=bash
# Sourced by .ci/run, ci/setup.sh and every ci/ script that runs a Python tool: the one place
# that says where CI's Python tools live. ci/setup.sh creates this virtual environment (Debian 12
# and Ubuntu 24.04 refuse `pip install` into the system Python) and installs
# ci/requirements.txt into it; putting its bin/ first on PATH makes check-jsonschema,
# actionlint, zizmor, cargo-zigbuild and `python3 -m ziglang` resolve there.
SPAWNMATRIX_VENV=${SPAWNMATRIX_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/spawnmatrix/venv}
export SPAWNMATRIX_VENV
case ":$PATH:" in
  *":$SPAWNMATRIX_VENV/bin:"*) ;;
  *) PATH="$SPAWNMATRIX_VENV/bin:$PATH"; export PATH ;;
esac
# The short bench every CI column runs for its perf rows (ci/probe.sh, ci/containers.sh).
# Read by the scripts that source this file.
# shellcheck disable=SC2034
ci_bench_sizes=0,256M
