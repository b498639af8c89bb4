#!/usr/bin/env bash
# Links the off-Linux test binaries here (issue 32, item 4), so a missing symbol, a test
# that does not compile for the target, or a hard reference to a spawn function that must be
# looked up at run time fails on this machine, not on the runner (50-cross-check only
# type-checks). zig is the linker (cargo-zigbuild, from CI's venv: ci/setup.sh pip) with its
# own macOS libSystem and FreeBSD libc stubs; without it the check says so and skips.
# Nothing here runs.
#
#   ci/checks/51-cross-link.sh [--all]
#
# - Self-test first (below): a planted test calling epoll_create1 must fail to link for each
#   target, naming the symbol, and the same test calling getpid must link.
# - Every test target of the spawn package (`cargo test --no-run`, default features, as
#   ci/test-column.sh builds them) for x86_64-apple-darwin, aarch64-apple-darwin and
#   x86_64-unknown-freebsd: 21 binaries each. `--all` adds the tool's (root package's) test
#   targets: not in .ci/run, whose budget they do not fit (an earlier, hand-run link of the
#   workspace for aarch64-apple-darwin took 1,128 s cold at load ~17); 50-cross-check
#   type-checks them.
# - In every binary linked, no spawn symbol newer than the baseline (spawn/src/sys/symbols.rs:
#   all but posix_spawn and posix_spawnp) is an undefined import: the library resolves them
#   with dlsym, so a binary loads on a release without them; at least one binary per target
#   must import posix_spawn(p), so the scan reads something.
#
# Cost (2 cores, CARGO_BUILD_JOBS=2, nice 10, load 7-10 from other work, debug without
# debuginfo, one target dir; each target builds its own dependencies: nothing is shared
# between the two Apple architectures but the host's proc macros): cold in a fresh target
# dir 285 s in all: self-test 9 s, x86_64-apple-darwin 144 s (the host's proc macros too),
# aarch64-apple-darwin 70 s, x86_64-unknown-freebsd 62 s; warm, the self-test and a few s.
# Each Apple target is a different architecture, so one build cannot stand in for the other.
# rustc warns that `xcrun` is missing (no Xcode SDK here): zig's stubs stand in for it.
# A test calling sigtimedwait (absent on macOS) planted in spawn/tests fails it:
# 'error: undefined symbol: _sigtimedwait ... 51-cross-link: the test targets do not link
# for x86_64-apple-darwin'. Its first whole run found spawn/tests/spawn_detached.rs naming
# libc::__WALL, which neither macOS nor FreeBSD has (fixed in de75fed).
# shellcheck source=ci/env.sh
. ci/env.sh
start_all=$SECONDS
if ! command -v cargo-zigbuild >/dev/null || ! python3 -m ziglang version >/dev/null 2>&1; then
  echo "51-cross-link: skipped: no cargo-zigbuild or zig (ci/setup.sh pip installs both)"
  exit 0
fi
targets=(x86_64-apple-darwin aarch64-apple-darwin x86_64-unknown-freebsd)
for t in "${targets[@]}"; do
  rustup target list --installed | grep -qx "$t" || rustup target add "$t"
done
# Debug without debuginfo: the link is what is checked, and it is most of the cost otherwise.
export CARGO_PROFILE_TEST_DEBUG=false CARGO_PROFILE_DEV_DEBUG=false
# Which packages' test targets: in .ci/run the library's (its platform paths are what differ
# per target); `--all` adds the tool's, on demand (too slow for CI's budget, header).
packages=(-p spawnmatrix-spawn)
[ "${1:-}" = --all ] && packages=(-p spawnmatrix-spawn -p spawnmatrix)

# Self-test first: a test target calling epoll_create1 (Linux's; no macOS libSystem and no
# FreeBSD libc has it) must fail to link for each target, naming the symbol, and the same
# test calling getpid instead must link, so the links below can fail. (Not pipe2: zig's
# libSystem stubs are the newest SDK's and list it, so it links for macOS here. A symbol a
# newer macOS added is caught by the import scan below, not by the link.)
echo "-- self-test: a test calling epoll_create1 fails to link, the same calling getpid links"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/planted/tests"
printf '[package]\nname = "planted-link"\nversion = "0.0.0"\nedition = "2021"\n[lib]\npath = "lib.rs"\n[workspace]\n' >"$work/planted/Cargo.toml"
: >"$work/planted/lib.rs"
plant() { # the C function the planted test calls
  printf 'extern "C" { fn %s(flags: i32) -> i32; }\n#[test]\nfn planted() { assert!(unsafe { %s(0) } >= 0); }\n' "$1" "$1" \
    >"$work/planted/tests/planted.rs"
}
for t in "${targets[@]}"; do
  plant getpid
  (cd "$work/planted" && CARGO_TARGET_DIR="$work/target" cargo-zigbuild test --quiet --no-run --target "$t" >/dev/null 2>&1) \
    || { echo "51-cross-link: the control test (getpid) does not link for $t: the check is broken"; exit 1; }
  plant epoll_create1
  if out=$(cd "$work/planted" && CARGO_TARGET_DIR="$work/target" cargo-zigbuild test --no-run --target "$t" 2>&1); then
    echo "51-cross-link: a test calling epoll_create1 linked for $t: this link would hide a missing symbol"
    exit 1
  fi
  grep -q 'undefined symbol: _\?epoll_create1' <<<"$out" \
    || { echo "51-cross-link: the planted link for $t failed, but not on epoll_create1:"; tail -20 <<<"$out"; exit 1; }
  echo "   $t: control linked; planted refused: $(grep -m1 -o 'undefined symbol: _\?epoll_create1' <<<"$out")"
done
echo "   self-test: $((SECONDS - start_all)) s"

# The spawn symbols a binary must not import (all but the POSIX baseline).
mapfile -t late < <(sed -n '/^macro_rules! with_spawn_symbols/,/^}/p' spawn/src/sys/symbols.rs \
  | grep -o '"[a-z_]*"' | tr -d '"' | grep -vx 'posix_spawnp\?')
[ "${#late[@]}" -ge 8 ] || { echo "51-cross-link: read ${#late[@]} spawn symbols from symbols.rs"; exit 1; }

# The undefined symbols of one binary, one a line, without Mach-O's leading underscore.
# ELF: the strong ones only ("U"; a weak "w" reference loads where the symbol is absent, as
# std's own for posix_spawn_file_actions_addchdir_np on FreeBSD). Mach-O: binutils' nm
# cannot read it; a symbol-table name is "\0_NAME\0", while dlsym's argument is "NAME\0"
# without the underscore, so a looked-up name does not match (std has no weak imports there).
imports() {
  case $(head -c 4 "$1" | od -An -tx1 | tr -d ' ') in
    7f454c46) nm -u -D "$1" | awk '$1 == "U" {print $2}' | sed 's/@.*//' ;;
    *) LC_ALL=C grep -aoP '(?<=\x00_)[a-z_0-9]+(?=\x00)' "$1" ;;
  esac | sort -u
}

check_binaries() { # target, then the executables built
  local t=$1 exe n=0 seen=0; shift
  for exe in "$@"; do
    local got
    got=$(imports "$exe")
    grep -qx 'posix_spawnp\?' <<<"$got" && seen=$((seen + 1))
    for s in "${late[@]}"; do
      if grep -qx "$s" <<<"$got"; then
        echo "51-cross-link: $exe ($t) imports $s directly: it must be looked up (spawn/src/sys/spawn_ext.rs)"
        exit 1
      fi
    done
    n=$((n + 1))
  done
  # A binary that never spawns may import neither; none importing one means nothing was read.
  [ "$seen" -gt 0 ] || { echo "51-cross-link: no $t binary imports posix_spawn(p): the import scan reads nothing"; exit 1; }
  echo "   $t: $n test binaries linked ($seen import posix_spawn or posix_spawnp), none imports a late spawn symbol"
}

build() { # target, then cargo arguments
  local t=$1 start=$SECONDS json; shift
  echo "-- $t: cargo zigbuild test --no-run $*"
  json=$work/$t.json
  cargo-zigbuild test --locked --no-run --target "$t" "$@" --message-format=json-render-diagnostics >"$json" \
    || { echo "51-cross-link: the test targets do not link for $t (above)"; exit 1; }
  mapfile -t exes < <(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m.get("profile", {}).get("test"):
        print(m["executable"])' "$json")
  [ "${#exes[@]}" -gt 0 ] || { echo "51-cross-link: no test binary linked for $t"; exit 1; }
  check_binaries "$t" "${exes[@]}"
  echo "   $t: $((SECONDS - start)) s"
}

for t in "${targets[@]}"; do
  build "$t" "${packages[@]}"
  bash ci/disk.sh prune
done
echo "51-cross-link: done in $((SECONDS - start_all)) s"
