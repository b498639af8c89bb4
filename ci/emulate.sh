#!/usr/bin/env bash
# Runs the test suite and the probe on other CPU architectures, each on a real Linux kernel
# (Debian's) under QEMU full-system emulation. qemu-user would not do: it turns
# CLONE_VM|CLONE_VFORK into a plain fork, so shared-memory error reporting goes untested.
#
#   ci/emulate.sh [--out DIR] [--save] [--tests NAMES [--no-probe] | --probe-only |
#                 --fuzz ARGS [--fuzz-debug]] [--timeout S] [ARCH...]
#   ARCH: aarch64 armhf s390x ppc64el riscv64
#
# Per ARCH: cross-builds the test binaries and the spawnmatrix binary (cargo-zigbuild: zig cc
# links, and build.rs builds the C child helper with it), packs them with busybox-static, dash,
# the files the tests read (the checkout, at the same absolute path) and ci/emulate/init.sh as
# /init into a newc initramfs, boots it, and parses the console (ci/emulate/results.py).
# Exits non-zero if any test fails, a program is missing from the log, or a guest hangs.
# --tests builds and runs only the test binaries with these names (comma-separated, as the
# summary names them: spawn,conformance,lib-spawnmatrix_spawn); the probe always runs. --save
# copies each probe report to targets/reports/emulated-ARCH-linux-LIBC.json, keeping the
# stored report's `fuzz` section (a campaign is run on its own, below).
# --no-probe runs the --tests binaries alone (a smoke: the probe takes minutes under TCG, and
# the stored report has its outcomes); --save then has nothing to save.
# --probe-only builds and runs no test binary, only the probe (its report: the conformance
# cases, capabilities and Auto's strategy), for a guest too slow for the tests.
# --fuzz ARGS runs, instead of the tests and the probe, `spawnmatrix fuzz ARGS` (a release
# build) in the guest, recorded (--record) into a copy of the stored report; with --save that
# report comes back with the campaign in its `fuzz` section; --fuzz-debug runs the campaign
# with the unoptimized binary the tests already built, saving a release build (minutes per
# architecture; the campaign compares outcomes, not speed). --timeout is each guest
# program's time limit in seconds (default 900; give a campaign its --time and some).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=$repo/out/emulate
save=0
only=
probe_only=0
no_probe=0
fuzz_args=
fuzz_profile=(--release)
# Each program's time limit in the guest (busybox timeout): a hang shows as rc=143 and the
# rest still runs.
program_timeout=900
archs=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --save) save=1; shift ;;
    --tests) only=$2; shift 2 ;;
    --probe-only) only=none probe_only=1; shift ;;
    --no-probe) no_probe=1; shift ;;
    --fuzz) fuzz_args=$2; shift 2 ;;
    --fuzz-debug) fuzz_profile=(); shift ;;
    --timeout) program_timeout=$2; shift 2 ;;
    -*) echo "emulate.sh: unknown option $1" >&2; exit 2 ;;
    *) archs+=("$1"); shift ;;
  esac
done
[ ${#archs[@]} -gt 0 ] || archs=(aarch64 armhf)
summary_args=()
[ $no_probe = 0 ] || summary_args=(--no-report)
log() { printf 'emulate: %s\n' "$*" >&2; }

bash ci/setup.sh pip emulation
# cargo-zigbuild and zig live in CI's venv.
# shellcheck source=ci/env.sh
. ci/env.sh
cache=${SPAWNMATRIX_CACHE:-}
[ -n "$cache" ] || { [ "$(id -u)" = 0 ] && cache=/var/cache/spawnmatrix || cache=$HOME/.cache/spawnmatrix; }
mkdir -p "$out"

# What each guest is: Rust target, Debian arch and release, kernel flavour, emulator, machine
# and console, libc, and the Debian packages unpacked into its root (ci/setup.sh downloads
# them). aarch64 runs Rust's bundled static musl; the others run Debian's own glibc, dynamic
# (Rust ships no riscv64gc musl std, and s390x musl is tier 3): armhf (32-bit), s390x
# (big-endian) and ppc64el (64 KiB pages) Debian 12's 2.36, riscv64 Debian 13's 2.41, since
# riscv64 is a Debian release architecture from 13 on. All get dash as /bin/sh, with the glibc
# it runs on: busybox chooses its applet by argv[0], so `sh` started under another argv[0]
# (CommandExt::arg0) would not be a shell.
configure() {
  debian=12 console=ttyAMA0 memory=2048
  case $1 in
    aarch64)
      target=aarch64-unknown-linux-musl debarch=arm64 flavour=arm64 libc=musl
      guest_debs=(libc6 dash)
      qemu=qemu-system-aarch64 machine=(-M virt -cpu cortex-a57) ;;
    armhf)
      target=armv7-unknown-linux-gnueabihf debarch=armhf flavour=armmp-lpae libc=gnu
      guest_debs=(libc6 libgcc-s1 dash)
      qemu=qemu-system-arm machine=(-M virt -cpu cortex-a15) ;;
    s390x)
      target=s390x-unknown-linux-gnu debarch=s390x flavour=s390x libc=gnu
      guest_debs=(libc6 libgcc-s1 dash)
      qemu=qemu-system-s390x machine=(-M s390-ccw-virtio -cpu max) console=ttysclp0 ;;
    ppc64el)
      target=powerpc64le-unknown-linux-gnu debarch=ppc64el flavour=powerpc64le libc=gnu
      guest_debs=(libc6 libgcc-s1 dash)
      qemu=qemu-system-ppc64 machine=(-M pseries -cpu power9 -vga none) console=hvc0 ;;
    riscv64)
      target=riscv64gc-unknown-linux-gnu debarch=riscv64 flavour=riscv64 libc=gnu debian=13
      guest_debs=(libc6 libgcc-s1 dash)
      qemu=qemu-system-riscv64 machine=(-M virt -cpu rv64) console=ttyS0 ;;
    *) log "unknown architecture $1 (aarch64, armhf, s390x, ppc64el, riscv64)"; return 1 ;;
  esac
}

# The order the guest runs test binaries in: the spawn library and the conformance suite
# first, so that a slow tail cannot starve them; binaries not named here run after these.
order=(spawn conformance lib-spawnmatrix_spawn std_parity beyond_std lib-spawnmatrix
  child_helper probe schema_sync profiles bad_input matrix_cli bin-spawnmatrix bench fuzz
  reliability)
# Tests not run in the guest: "BINARY FILTER REASON" (FILTER goes to libtest's --skip).
skip_tests=(
  "lib-spawnmatrix_spawn no_newer_spawn_symbol_is_linked_hard reads the binary's symbols with the build machine's objdump (binutils), which the guest lacks; cargo test runs it"
  "no_libc_in_child children_call_no_libc_function builds an LD_PRELOAD interposer with cc, which the guest lacks; cargo test and 45-i686 run it"
  "reliability load:: 32 threads x 500 spawns against a 300 s deadline: under TCG that measures the emulator, not the spawn code (x86_64 runs it)"
)
# One cargo-zigbuild build for $target, its artifacts appended to $work/build.json. No
# debuginfo: it would make each test binary ~60 MB in the guest's RAM.
build() {
  CARGO_PROFILE_DEV_DEBUG=false CARGO_PROFILE_TEST_DEBUG=false CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo-zigbuild "$1" "${@:2}" --target "$target" --message-format=json-render-diagnostics \
    >>"$work/build.json"
}
# Builds only the test binaries --tests names (lib-PKG: a package's unit tests; bin-NAME: a
# binary's; else an integration test of either package), and the probe's binary: the whole
# set takes minutes more to build than it saves.
build_selected() {
  local name tests=() lib
  for name in ${1//,/ }; do
    case $name in
      lib-*) lib=${name#lib-}; build test --no-run -p "${lib//_/-}" --lib ;;
      bin-*) build test --no-run -p spawnmatrix --bin "${name#bin-}" ;;
      *) tests+=(--test "$name") ;;
    esac
  done
  [ ${#tests[@]} = 0 ] || build test --no-run -p spawnmatrix -p spawnmatrix-spawn "${tests[@]}"
  [ $no_probe = 1 ] || build build -p spawnmatrix --bin spawnmatrix
}

# Quotes a value for the guest's busybox sh.
shquote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

status=0
for arch in "${archs[@]}"; do
  configure "$arch"
  work=$out/$arch
  rm -rf "$work" && mkdir -p "$work"
  debs=$cache/debs/$debarch

  log "$arch: building for $target"
  start=$SECONDS
  : >"$work/build.json"
  if [ -n "$fuzz_args" ]; then
    build build "${fuzz_profile[@]}" -p spawnmatrix --bin spawnmatrix
  elif [ $probe_only = 1 ]; then
    build build -p spawnmatrix --bin spawnmatrix
  elif [ -z "$only" ]; then
    build test --no-run
  else
    build_selected "$only"
  fi
  build_seconds=$((SECONDS - start))

  log "$arch: packing the initramfs"
  root=$work/root
  # A merged /usr, as Debian 12 installs and Debian 13's packages assume (they ship files
  # under /usr only, and their programs' interpreter is still /lib/ld-*).
  mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,proc,sys,dev,tmp,root,etc,suite}
  for d in bin sbin lib; do ln -s "usr/$d" "$root/$d"; done
  for pkg in busybox-static "${guest_debs[@]}"; do
    dpkg-deb --fsys-tarfile "$debs/${pkg}"_*.deb | tar -x --keep-directory-symlink -C "$root" --exclude './usr/share/*'
  done
  ln -sf dash "$root/bin/sh"
  kdeb=$(ls "$debs"/linux-image-[0-9]*.deb)
  # vmlinuz (compressed), or vmlinux where Debian ships the kernel uncompressed (ppc64el).
  dpkg-deb --fsys-tarfile "$kdeb" | tar -x -C "$work" --wildcards './boot/vmlinu[xz]-*'
  kernel=$(ls "$work"/boot/vmlinu[xz]-*)
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
  cp ci/emulate/init.sh "$root/init"
  # The tests find cases, expectations and schemas through CARGO_MANIFEST_DIR, and the
  # binary through CARGO_BIN_EXE_*: both are this checkout's absolute paths.
  mkdir -p "$root$repo"
  git ls-files -z | tar --null -T - -cf - | tar -x -C "$root$repo"
  python3 ci/emulate/results.py executables "$work/build.json" >"$work/executables"
  declare -A command=()
  while read -r kind name exe; do
    mkdir -p "$root$(dirname "$exe")"
    cp "$exe" "$root$exe"
    [ "$kind" = test ] || continue
    case $name in
      # zig's sysroots, not this CPU: runs in `cargo test` on the build machine.
      linkcheck_facts) echo "$name	zig is a build-machine tool (tests link probes against zig sysroots)" >>"$work/skipped"; continue ;;
    esac
    if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then
      echo "$name	not in --tests $only" >>"$work/skipped"; continue
    fi
    command[$name]=$exe
    for skip in "${skip_tests[@]}"; do
      read -r binary filter why <<<"$skip"
      [ "$binary" = "$name" ] || continue
      command[$name]+=" --skip $filter"
      echo "$name --skip $filter	$why" >>"$work/skipped"
    done
  done <"$work/executables"
  : >"$root/suite/run.list"
  for name in "${order[@]}" $(printf '%s\n' "${!command[@]}" | sort); do
    [ -n "${command[$name]:-}" ] || continue
    printf '%s\t%s\t%s\n' "$name" "$repo" "${command[$name]}" >>"$root/suite/run.list"
    unset "command[$name]"
  done
  tool=$(awk '$1 == "bin" && $2 == "spawnmatrix" {print $3}' "$work/executables")
  report=emulated-$arch-linux-$libc.json
  if [ -n "$fuzz_args" ]; then
    # The campaign goes into the stored report, which the guest prints back at the end.
    mkdir -p "$root/tmp/out"
    cp targets/reports/"$report" "$root/tmp/out/$report"
    printf '%s\t%s\t%s\n' spawnmatrix-fuzz /tmp "$tool fuzz $fuzz_args --record /tmp/out/$report" >>"$root/suite/run.list"
  elif [ $no_probe = 0 ]; then
    printf '%s\t%s\t%s\n' spawnmatrix-probe "$repo" "$tool probe --json >/tmp/out/$report" >>"$root/suite/run.list"
  fi

  qemu_version=$($qemu --version | head -n1 | sed 's/.*version \([^ ]*\).*/\1/')
  kpkg=$(basename "$kdeb" .deb)
  {
    echo "export HOME=/tmp/home PATH=/usr/sbin:/usr/bin:/sbin:/bin TMPDIR=/tmp RUST_BACKTRACE=1"
    echo "export SUITE_TIMEOUT=$program_timeout"
    # A conformance runner's hang guard (60 s natively); TCG is ~10x slower.
    echo "export SPAWNMATRIX_RUNNER_TIMEOUT=600 SPAWNMATRIX_CHILD_TIMEOUT=60"
    echo "export SPAWNMATRIX_PROVENANCE=emulated"
    echo "export SPAWNMATRIX_IMAGE=$(shquote "$qemu ${machine[*]} + Debian $debian linux-image-$flavour")"
    echo "export SPAWNMATRIX_HOST=$(shquote "ci/emulate.sh: QEMU $qemu_version, Debian ${kpkg//_/ }")"
  } >"$root/suite/env"
  (cd "$root" && find . | cpio -o -H newc --quiet) >"$work/initramfs.cpio"

  log "$arch: booting $(basename "$kernel") under $qemu $qemu_version"
  start=$SECONDS
  # -smp 2: the suite spawns from several threads. Output is the serial console only.
  timeout $((program_timeout > 900 ? program_timeout + 900 : 1800)) "$qemu" "${machine[@]}" -smp 2 -m "$memory" -nic none -nographic -no-reboot \
    -kernel "$kernel" -initrd "$work/initramfs.cpio" \
    -append "console=$console panic=-1 quiet loglevel=1 rdinit=/init" \
    </dev/null >"$work/console.log" 2>&1 || log "$arch: $qemu exited with $?"
  run_seconds=$((SECONDS - start))
  if python3 ci/emulate/results.py summary "$work/console.log" "$work" \
      --arch "$arch" --build-seconds "$build_seconds" --run-seconds "$run_seconds" \
      "${summary_args[@]}"; then
    if [ $save = 1 ] && [ $no_probe = 0 ]; then
      python3 ci/emulate/results.py save "$work/files/$report" targets/reports/"$report"
      log "$arch: saved targets/reports/$report"
    fi
  else
    status=1
  fi
  rm -rf "$root" "$work/initramfs.cpio"
done
exit $status
