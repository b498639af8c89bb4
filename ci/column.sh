# shellcheck shell=bash
# Sourced by ci/probe-column.sh and ci/test-column.sh with the column name in $column: how
# that column of the workflow builds (the cargo invocation, target, target dir, the C helpers)
# and how its report is labelled. Bash 3.2 (macOS). The columns:
#   macos-15, macos-15-intel   the runner of that label (arm64, x86_64)
#   freebsd                    inside vmactions/freebsd-vm; the release comes from the VM
#   cygwin                     windows-2025 with Cygwin; tier-3 target, the pinned nightly
#                              builds std (-Zbuild-std), Cygwin's gcc links and builds the helpers
# The variables it sets are read by the scripts that source it.
# shellcheck disable=SC2034
: "${column:?ci/column.sh needs \$column}"
cargo_cmd=(cargo)
build_std=()
# What ci/test-column.sh runs cargo test under: nothing, or a time limit where the job's own
# limit would lose more than the tests (the FreeBSD VM, whose copyback brings the report).
test_limit=()
exe=
target_subdir=
case $column in
  macos-15|macos-15-intel)
    report=ci-$column image=$column host="GitHub Actions $column ($(uname -m))" ;;
  freebsd)
    # Outside the workspace, so the VM's copyback brings back results/, not target/.
    export CARGO_TARGET_DIR=/var/tmp/spawnmatrix-target
    # 45 minutes, then SIGTERM (SIGKILL a minute later): under the job's 90.
    test_limit=(timeout -k 60 2700)
    rel=$(freebsd-version)
    report=ci-freebsd-$rel image=freebsd-$rel host="GitHub Actions vmactions/freebsd-vm" ;;
  cygwin)
    cargo_cmd=(cargo "+$(cat ci/nightly-toolchain)")
    build_std=("-Zbuild-std=std,panic_abort")
    export CARGO_BUILD_TARGET=x86_64-pc-cygwin CARGO_TARGET_X86_64_PC_CYGWIN_LINKER=x86_64-pc-cygwin-gcc.exe
    # build.rs cannot build the C helpers for a cross target: Cygwin's gcc builds them (in
    # ci/probe-column.sh) and these variables point the probe and the tests at them.
    export SPAWNMATRIX_CHILD="$PWD/helper/spawnmatrix-child.exe" SPAWNMATRIX_TRUE="$PWD/helper/spawnmatrix-true.exe"
    exe=.exe target_subdir=x86_64-pc-cygwin/
    report=ci-cygwin image=windows-2025-cygwin host="GitHub Actions windows-2025, Cygwin $(uname -r)" ;;
  *)
    echo "${0##*/}: unknown column '$column' (macos-15 macos-15-intel freebsd cygwin; no options)" >&2
    exit 2 ;;
esac
bin=${CARGO_TARGET_DIR:-target}/${target_subdir}release/spawnmatrix$exe
