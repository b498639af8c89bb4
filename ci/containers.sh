#!/usr/bin/env bash
# The libc matrix in containers: each Debian suite's own glibc, Alpine's musl (--pull only),
# plus two static musl builds and the two i686 (32-bit) builds run on this host. The workflow's
# Linux jobs and .ci/run call it through ci/linux-column.sh (containers only).
#
#   ci/containers.sh [--out DIR] [--cache DIR] [--pull] [--no-containers] [--no-musl] [--no-i686] [--no-cases]
#                    [--bench SIZES | --no-bench] [--images-only] [--dev] [COLUMN...]
#
# COLUMN is a Debian suite (bullseye bookworm trixie sid; default all four) or, with --pull,
# `alpine`. Without --pull there is no registry: each Debian image is a debootstrap root with
# containers/debian-SUITE.Containerfile applied on top. With --pull the Containerfiles are
# built as they are (FROM a registry image). Each column runs `spawnmatrix probe` with the
# conformance cases and a short bench at SIZES (default: ci/env.sh, 0,256M) for its perf rows. Every
# container runs under Docker's default seccomp profile (containers/seccomp/docker-default.json,
# given to podman and docker alike), and its image label says so. Inside every
# container, conformance/cases and targets/ are mounted read-only at /spawnmatrix/cases and
# /spawnmatrix/targets and named by SPAWNMATRIX_CASES and SPAWNMATRIX_TARGETS, so each verdict
# is judged with the recorded expectations (targets/<family>/expectations/). Writes one report
# per column to DIR (default targets/reports): container-debian-SUITE.json,
# container-alpine.json, native-x86_64-linux-musl-rust.json,
# native-x86_64-linux-musl-debian.json, native-i686-linux-gnu.json (glibc from gcc-multilib's
# libc6-i386) and native-i686-linux-musl.json (Rust's bundled musl, static; the helper built by
# zig). Debootstrap roots are cached under
# $SPAWNMATRIX_CACHE (default /var/cache/spawnmatrix as root, else ~/.cache/spawnmatrix); the
# mirror comes from this machine's apt sources ($SPAWNMATRIX_MIRROR overrides). The engine is
# podman (with runc) or docker, whichever works first; $SPAWNMATRIX_ENGINE picks one. Anything
# that cannot run is skipped with the reason, and the exit status is non-zero if a column failed.
# --dev builds the host columns in cargo's dev profile: minutes faster, for a check of the build
# and of the report's shape (.ci/run); its bench figures are a debug build's, so it needs --out.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# cargo-zigbuild lives in CI's venv.
# shellcheck source=ci/env.sh
. ci/env.sh
# Where the containers see the cases and the expectations (mounted read-only).
cases_in=/spawnmatrix/cases
targets_in=/spawnmatrix/targets
# Docker's default seccomp profile, vendored (containers/seccomp/README.md): the sandbox is
# part of the column (its image label), so both engines get this file, never their own default.
seccomp_profile=$repo/containers/seccomp/docker-default.json
seccomp_sha256=536529b665dd0972c37bfb569f5d4ac8a53592e7b00752bc39ff063ca9864c74
seccomp_label=seccomp=docker-default

out=targets/reports
cache=${SPAWNMATRIX_CACHE:-}
musl=1
i686=1
containers=1
pull=0
cases_flag=()
bench_flag=(--bench "$ci_bench_sizes")
suites=()
images_only=0
profile=release
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --no-musl) musl=0; shift ;;
    --no-i686) i686=0; shift ;;
    --no-containers) containers=0; shift ;;
    --pull) pull=1; shift ;;
    --no-cases) cases_flag=(--no-cases); shift ;;
    --bench) bench_flag=(--bench "$2"); shift 2 ;;
    --no-bench) bench_flag=(); shift ;;
    --images-only) images_only=1; shift ;;
    --dev) profile=dev; shift ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    -*) echo "containers.sh: unknown option $1" >&2; exit 2 ;;
    *) suites+=("$1"); shift ;;
  esac
done
[ ${#suites[@]} -gt 0 ] || suites=(bullseye bookworm trixie sid)
for s in "${suites[@]}"; do
  case $s in
    bullseye|bookworm|trixie|sid) ;;
    alpine) [ $pull = 1 ] || { echo "containers.sh: alpine needs --pull (a registry)" >&2; exit 2; } ;;
    *) echo "containers.sh: unknown column $s" >&2; exit 2 ;;
  esac
done
if [ -z "$cache" ]; then
  if [ "$(id -u)" = 0 ]; then cache=/var/cache/spawnmatrix; else cache=$HOME/.cache/spawnmatrix; fi
fi
# cargo names the dev profile's folder debug.
profile_dir=$profile
[ "$profile" = release ] || profile_dir=debug
if [ "$profile" = dev ] && [ "$out" = targets/reports ]; then
  echo "containers.sh: --dev needs --out: a debug build's bench figures do not belong in targets/reports" >&2
  exit 2
fi
mkdir -p "$out" "$cache/roots"
out=$(cd "$out" && pwd)
target_dir=${CARGO_TARGET_DIR:-$repo/target}

started=$SECONDS
summary=()
failed=0
log() { printf '[containers %4ds] %s\n' $((SECONDS - started)) "$*" >&2; }
note() { summary+=("$*"); log "$*"; }
fail() { failed=1; note "FAILED: $*"; }

# --- helpers -------------------------------------------------------------------------------

# The Debian mirror this machine's apt uses (deb822 .sources files or one-line lists).
debian_mirror() {
  if [ -n "${SPAWNMATRIX_MIRROR:-}" ]; then echo "$SPAWNMATRIX_MIRROR"; return; fi
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    for uri in $(awk 'tolower($1)=="uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"); do
      case $uri in */debian|*/debian/) echo "${uri%/}"; return ;; esac
    done
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    uri=$(awk '$1=="deb" { for (i=2;i<=NF;i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$f" |
      grep -E '/debian/?$' | head -n1 || true)
    if [ -n "$uri" ]; then echo "${uri%/}"; return; fi
  done
  return 1
}

# podman (with runc: crun fails on hybrid cgroups here) or a docker whose engine answers.
engine=()
find_engine() {
  case ${SPAWNMATRIX_ENGINE:-} in
    docker) engine=(docker); docker info >/dev/null 2>&1; return ;;
    podman|'') ;;
    *) log "SPAWNMATRIX_ENGINE=$SPAWNMATRIX_ENGINE: neither podman nor docker"; return 1 ;;
  esac
  if command -v podman >/dev/null 2>&1; then
    engine=(podman)
    if command -v runc >/dev/null 2>&1; then engine+=(--runtime runc); fi
    "${engine[@]}" info >/dev/null 2>&1 && return 0
    log "podman is installed but 'podman info' fails"
  fi
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    engine=(docker); return 0
  fi
  return 1
}

# Ulimits at or below the hard limits (setting them higher needs CAP_SYS_RESOURCE).
run_limits() {
  local hn hu
  hn=$(ulimit -Hn); hu=$(ulimit -Hu)
  [ "$hn" = unlimited ] && hn=20000
  [ "$hu" = unlimited ] && hu=4096
  [ "$hn" -gt 20000 ] && hn=20000
  [ "$hu" -gt 4096 ] && hu=4096
  echo "--ulimit nofile=$((hn < 1024 ? hn : 1024)):$hn --ulimit nproc=$hu:$hu"
}

# A report is kept only if it parses and names the provenance that was asked for.
keep_report() { # tmpfile dest kind
  if python3 - "$1" "$3" "${#cases_flag[@]}" "${#bench_flag[@]}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
p = r["platform"]
assert p["provenance"]["kind"] == sys.argv[2], p["provenance"]
assert r.get("cases") or sys.argv[3] != "0", "the report has no conformance cases"
assert r.get("perf") or sys.argv[4] == "0", "the report has no perf rows"
auto = [f"{e['ratio_to_floor']:.2f}x@{e['parent_mib']}M"
        for e in (r.get("perf") or {}).get("entries", []) if e["strategy"] == "shared:auto"]
libc = p["libc"]
print(f"  {p.get('os_version') or p['os']}: {libc['name']} {libc.get('version') or '?'}"
      f" | {sum(c['available'] for c in r['capabilities'].values())} of {len(r['capabilities'])} capabilities"
      f" | {len(r.get('cases', {}))} cases"
      f"{' | shared:auto ' + ' '.join(auto) if auto else ''}", file=sys.stderr)
PY
  then mv "$1" "$2"; return 0; fi
  return 1
}

# The child helper that build.rs embedded into the binary built in TARGET_SUBDIR.
built_helper() { # target_dir/triple/release
  ls -t "$1"/build/spawnmatrix-*/out/spawnmatrix-child 2>/dev/null | head -n1
}

# The child helper must run inside the column too: run it alone and check its JSON.
check_helper() { # description command...
  local desc=$1; shift
  local json
  if json=$("$@" 2>&1) && printf '%s' "$json" | python3 -c 'import json,sys; s=json.load(sys.stdin); assert "pid" in s and "fds" in s'; then
    log "$desc: the child helper runs and reports"
  else
    fail "$desc: the child helper does not run: $(printf '%s' "$json" | head -c 300)"
  fi
}

# --- glibc containers ----------------------------------------------------------------------

gnu_bin=$target_dir/x86_64-unknown-linux-gnu/release/spawnmatrix
build_gnu() {
  log "build: cargo zigbuild --release --target x86_64-unknown-linux-gnu.2.17 (glibc 2.17 baseline)"
  command -v cargo-zigbuild >/dev/null 2>&1 || { fail "cargo-zigbuild missing (ci/setup.sh pip group)"; return 1; }
  cargo zigbuild --quiet --release --target x86_64-unknown-linux-gnu.2.17 --bin spawnmatrix \
    || { fail "cargo zigbuild for glibc 2.17 failed"; return 1; }
}

# Debootstrap SUITE once into the cache (atomically: a half-made root is never used).
ensure_root() { # suite
  local suite=$1 root=$cache/roots/$1
  if [ -f "$root/.spawnmatrix-complete" ]; then
    log "$suite: debootstrap root cached ($root, made $(cat "$root/.spawnmatrix-complete"))"
    return 0
  fi
  local mirror
  mirror=$(debian_mirror) || { fail "$suite: no Debian mirror in /etc/apt/sources.list*"; return 1; }
  log "$suite: debootstrap --variant=minbase $suite from $mirror (1-3 minutes)"
  rm -rf "$root.tmp"
  if ! debootstrap --variant=minbase "$suite" "$root.tmp" "$mirror" >"$cache/roots/$suite.log" 2>&1; then
    fail "$suite: debootstrap failed (see $cache/roots/$suite.log: $(tail -n1 "$cache/roots/$suite.log"))"
    rm -rf "$root.tmp"
    return 1
  fi
  date -u +%Y-%m-%dT%H:%M:%SZ >"$root.tmp/.spawnmatrix-complete"
  rm -rf "$root"
  mv "$root.tmp" "$root"
}

# Import the root as a base image (again whenever the root is newer), then apply the suite's
# Containerfile on top of it, so local runs and registry CI share one definition.
ensure_image() { # suite image
  local suite=$1 image=$2 root=$cache/roots/$1 base=localhost/spawnmatrix-root:$1
  local stamp
  stamp=$(cat "$root/.spawnmatrix-complete")
  if [ "$("${engine[@]}" image inspect --format '{{ index .Config.Labels "spawnmatrix.root" }}' "$image" 2>/dev/null)" = "$stamp" ]; then
    log "$suite: image $image is current"
    return 0
  fi
  log "$suite: importing the root as $base"
  tar -C "$root" -c . | "${engine[@]}" import --quiet - "$base" >/dev/null \
    || { fail "$suite: image import failed"; return 1; }
  "${engine[@]}" build --quiet --from "$base" --label "spawnmatrix.root=$stamp" \
    -f "containers/debian-$suite.Containerfile" -t "$image" containers >/dev/null \
    || { fail "$suite: building $image from containers/debian-$suite.Containerfile failed"; return 1; }
}

# --pull: the Containerfile as it is, FROM its registry image. Alpine builds spawnmatrix
# inside, so its context is the repository root (.containerignore leaves target/ out).
pull_image() { # column image
  local column=$1 image=$2 file=containers/debian-$1.Containerfile context=containers
  [ "$column" != alpine ] || { file=containers/alpine.Containerfile; context=.; }
  log "$column: ${engine[0]} build -f $file $context"
  "${engine[@]}" build -f "$file" -t "$image" "$context" >&2 \
    || { fail "$column: building $image from $file failed"; return 1; }
}

# One container column: the probe with the cases and expectations mounted read-only.
run_column() { # column
  local column=$1 t0=$SECONDS
  local name=debian-$column image=localhost/spawnmatrix/debian:$column label=spawnmatrix/debian:$column
  [ "$column" != alpine ] || { name=alpine image=localhost/spawnmatrix/alpine label=spawnmatrix/alpine; }
  if [ $pull = 1 ]; then pull_image "$column" "$image" || return 0
  else ensure_image "$column" "$image" || return 0
  fi
  local mounts=(-v "$repo/conformance/cases:$cases_in:ro" -v "$repo/targets:$targets_in:ro"
    -e "SPAWNMATRIX_CASES=$cases_in" -e "SPAWNMATRIX_TARGETS=$targets_in")
  local bindir="" bin=/usr/local/bin/spawnmatrix
  if [ "$column" != alpine ]; then
    # Debian: the glibc 2.17 baseline build, mounted at /w with its child helper.
    bindir=$(mktemp -d)
    cp "$gnu_bin" "$bindir/spawnmatrix"
    cp "$(built_helper "$target_dir/x86_64-unknown-linux-gnu/release")" "$bindir/spawnmatrix-child" \
      || fail "$column: no built child helper found next to $gnu_bin"
    chmod -R a+rX "$bindir"
    mounts+=(-v "$bindir:/w:ro")
    bin=/w/spawnmatrix
  fi
  # run_limits prints flags, split on purpose.
  # shellcheck disable=SC2046,SC2207
  local run=("${engine[@]}" run --rm --network=none --security-opt "seccomp=$seccomp_profile"
    $(run_limits) "${mounts[@]}" "$image")
  log "$column: libc $("${run[@]}" ldd --version 2>&1 | head -n1)"
  # The profile is in force: the kernel reports seccomp filter mode (2) inside.
  local mode
  mode=$("${run[@]}" sh -c 'grep "^Seccomp:" /proc/self/status' 2>&1 | awk '{print $2}')
  if [ "$mode" != 2 ]; then
    fail "$column: no seccomp filter in the container (Seccomp: ${mode:-?}), so it would not run under $seccomp_label"
    return 0
  fi
  [ -z "$bindir" ] || check_helper "$name" "${run[@]}" /w/spawnmatrix-child
  local tmp=$out/.container-$name.json.tmp dest=$out/container-$name.json
  log "$column: probe ${cases_flag[*]} ${bench_flag[*]} (the conformance cases unless --no-cases)"
  if "${run[@]}" "$bin" probe --json "${cases_flag[@]}" "${bench_flag[@]}" --provenance container \
      --image "$label $seccomp_label" --host "${SPAWNMATRIX_HOST:-$(hostname)} via ${engine[0]}" >"$tmp" 2>"$tmp.err" \
      && keep_report "$tmp" "$dest" container; then
    note "$name: report written in $((SECONDS - t0))s -> $dest"
  else
    fail "$name: probe failed: $(tail -n3 "$tmp.err" | tr '\n' ' ')"
  fi
  [ -z "$bindir" ] || rm -rf "$bindir"
  rm -f "$tmp" "$tmp.err"
}

# --- musl on the host ----------------------------------------------------------------------

musl_rust_bin=$target_dir/x86_64-unknown-linux-musl/$profile_dir/spawnmatrix
musl_debian_dir=$target_dir/debian-musl
musl_debian_bin=$musl_debian_dir/x86_64-unknown-linux-musl/$profile_dir/spawnmatrix

build_musl_rust() {
  log "build: cargo build --profile $profile --target x86_64-unknown-linux-musl (Rust's bundled musl)"
  cargo build --quiet --profile "$profile" --target x86_64-unknown-linux-musl --bin spawnmatrix \
    || { fail "musl (Rust) build failed"; return 1; }
}

# Rust std against Debian's musl-gcc and libc.a; libunwind.a comes from Rust's musl target.
# relocation-model=static: rustc would ask for -static-pie, which musl-gcc's specs turn into a
# dynamic PIE that needs /lib/ld-musl-x86_64.so.1.
build_musl_debian() {
  command -v musl-gcc >/dev/null 2>&1 || { fail "musl-gcc missing (apt musl-tools)"; return 1; }
  local sysroot unwind
  sysroot=$(rustc --print sysroot)
  unwind=$sysroot/lib/rustlib/x86_64-unknown-linux-musl/lib/self-contained/libunwind.a
  [ -f "$unwind" ] || { fail "no $unwind (rustup target add x86_64-unknown-linux-musl)"; return 1; }
  mkdir -p "$musl_debian_dir/native"
  cp "$unwind" "$musl_debian_dir/native/"
  log "build: Debian's musl $(dpkg-query -W -f '${Version}' musl-dev 2>/dev/null) via musl-gcc, link-self-contained=no"
  CARGO_TARGET_DIR=$musl_debian_dir \
  CC_x86_64_unknown_linux_musl=musl-gcc \
  RUSTFLAGS="-C target-feature=+crt-static -C link-self-contained=no -C linker=musl-gcc -C relocation-model=static -L native=$musl_debian_dir/native" \
    cargo build --quiet --profile "$profile" --target x86_64-unknown-linux-musl --bin spawnmatrix \
    || { fail "musl (Debian) build failed"; return 1; }
}

# The i686 targets, natively (an x86_64 kernel runs 32-bit programs): glibc dynamic, musl static.
build_i686() { # triple
  log "build: cargo build --profile $profile --target $1"
  cargo build --quiet --profile "$profile" --target "$1" --bin spawnmatrix || { fail "$1 build failed"; return 1; }
}

run_native() { # name binary description static|dynamic
  local name=$1 bin=$2 desc=$3 t0=$SECONDS
  if [ "$4" = static ] && readelf -l "$bin" 2>/dev/null | grep -q INTERP; then fail "$name: $bin is not static"; return 0; fi
  check_helper "$name" "$(built_helper "$(dirname "$bin")")"
  local tmp=$out/.native-$name.json.tmp
  log "$name: probe on this host ($desc)"
  local dest=$out/native-$name.json
  if SPAWNMATRIX_CASES=$repo/conformance/cases SPAWNMATRIX_TARGETS=$repo/targets \
      "$bin" probe --json "${cases_flag[@]}" "${bench_flag[@]}" --provenance native \
      --host "$(. /etc/os-release && echo "$PRETTY_NAME") build machine; $desc" >"$tmp" 2>"$tmp.err" \
      && keep_report "$tmp" "$dest" native; then
    note "$name: report written in $((SECONDS - t0))s -> $dest"
  else
    fail "$name: probe failed: $(tail -n3 "$tmp.err" | tr '\n' ' ')"
  fi
  rm -f "$tmp" "$tmp.err"
}

# --- main ----------------------------------------------------------------------------------

if [ $containers = 1 ] && ! echo "$seccomp_sha256  $seccomp_profile" | sha256sum -c --quiet -; then
  echo "containers.sh: $seccomp_profile is not the vendored profile (containers/seccomp/README.md)" >&2
  exit 2
fi

log "columns: $([ $containers = 1 ] && echo "${suites[*]}")$([ $musl = 1 ] && echo ' + musl (Rust) + musl (Debian)')$([ $i686 = 1 ] && echo ' + i686 gnu + i686 musl') -> $out"
debian=()
for s in "${suites[@]}"; do [ "$s" = alpine ] || debian+=("$s"); done
if [ $containers = 0 ]; then
  log "no containers (--no-containers)"
elif find_engine; then
  log "engine: ${engine[*]}"
  if [ $images_only = 1 ]; then
    # --images-only: each Debian column's image (localhost/spawnmatrix/debian:SUITE), for
    # checks that run other binaries in it (ci/checks/81-pidfd-spawn.sh); nothing is built.
    for s in "${debian[@]}"; do
      ensure_root "$s" && ensure_image "$s" "localhost/spawnmatrix/debian:$s" || true
    done
    exit $failed
  fi
  # Debootstrap (network and disk) while cargo builds (CPU); each root is checked after.
  roots_pid=""
  if [ $pull = 0 ]; then
    ( for s in "${debian[@]}"; do ensure_root "$s" || true; done ) &
    roots_pid=$!
  fi
  built=0
  if [ ${#debian[@]} -gt 0 ]; then build_gnu && built=1; fi
  [ -z "$roots_pid" ] || wait "$roots_pid" || true
  for s in "${suites[@]}"; do
    if [ $pull = 0 ] && [ ! -f "$cache/roots/$s/.spawnmatrix-complete" ]; then
      fail "debian $s: no debootstrap root (see $cache/roots/$s.log)"
    elif [ $built = 1 ] || [ "$s" = alpine ]; then
      run_column "$s"
    fi
  done
  [ $built = 1 ] || [ ${#debian[@]} = 0 ] || note "SKIPPED debian ${debian[*]}: no glibc 2.17 build"
else
  note "SKIPPED ${suites[*]}: neither podman nor a docker engine works here"
fi
if [ $musl = 1 ]; then
  if build_musl_rust; then run_native x86_64-linux-musl-rust "$musl_rust_bin" "Rust's bundled musl, static" static; fi
  if build_musl_debian; then
    run_native x86_64-linux-musl-debian "$musl_debian_bin" "Debian's musl $(dpkg-query -W -f '${Version}' musl-dev 2>/dev/null), static" static
  fi
fi
if [ $i686 = 1 ]; then
  if build_i686 i686-unknown-linux-gnu; then
    run_native i686-linux-gnu "$target_dir/i686-unknown-linux-gnu/$profile_dir/spawnmatrix" \
      "i686 (32-bit) on the x86_64 kernel; glibc $(dpkg-query -W -f '${Version}' libc6-i386 2>/dev/null) from libc6-i386" dynamic
  fi
  if build_i686 i686-unknown-linux-musl; then
    run_native i686-linux-musl "$target_dir/i686-unknown-linux-musl/$profile_dir/spawnmatrix" \
      "i686 (32-bit) on the x86_64 kernel; Rust's bundled musl, static" static
  fi
fi

log "done in $((SECONDS - started))s"
printf '  %s\n' "${summary[@]}" >&2
exit $failed
