#!/usr/bin/env bash
# Runs the test suite and the probe on other CPU architectures, each on a real Linux kernel
# (Debian's) under QEMU full-system emulation. qemu-user would not do: it turns
# CLONE_VM|CLONE_VFORK into a plain fork, so shared-memory error reporting goes untested.
#
#   ci/emulate.sh [--out DIR] [--save] [--tests NAMES [--filter F] [--no-probe] | --probe-only |
#                 --fuzz ARGS [--fuzz-debug]] [--timeout S] [ARCH...]
#   ARCH: aarch64 armhf s390x ppc64el riscv64, or linux-VER for an x86_64 guest on one of
#   Debian's kernels (VER: 5.10 bullseye, 6.1 bookworm, 6.12 trixie, 6.16 trixie-backports,
#   7.2 sid, 7.3 experimental; ci/setup.sh kernels downloads them)
#
# Per ARCH: cross-builds the test binaries and the spawnmatrix binary (cargo-zigbuild: zig cc
# links, and build.rs builds the C child helper with it), packs them with busybox-static, dash,
# the files the tests read (the checkout, at the same absolute path) and ci/emulate/init.sh as
# /init into a newc initramfs, boots it, and parses the console (ci/emulate/results.py).
# Exits non-zero if any test fails, a program is missing from the log, or a guest hangs.
# A kernel guest (linux-VER) runs this machine's own x86_64 build (plain cargo, no cross
# target, so it reuses `cargo test`'s artifacts; debuginfo is stripped on the way into the
# guest) on Debian 12's glibc 2.36 and strace, so that only the kernel differs from this
# machine; its report is targets/reports/kernel-VER-x86_64-linux-gnu.json. It runs under KVM
# when a test boot under KVM reaches its init, and under TCG otherwise (the report says which).
# --tests builds and runs only the test binaries with these names (comma-separated, as the
# summary names them: spawn,conformance,lib-spawnmatrix_spawn); the probe always runs. --save
# copies each probe report to targets/reports/emulated-ARCH-linux-LIBC.json, keeping the
# stored report's `fuzz` section (a campaign is run on its own, below).
# --filter F passes F to every test binary (libtest's substring filter: `--tests spawn
# --filter autokill` runs spawn's tests whose names contain `autokill`).
# --probe-args ARGS adds ARGS to the guest's `spawnmatrix probe --json` (`--bench 0,256M
# --sandbox`: the perf rows, and the sandbox profiles on that kernel).
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
test_filter=
probe_args=
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
    --filter) test_filter=$2; shift 2 ;;
    --probe-args) probe_args=$2; shift 2 ;;
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

kernels=() foreign=0
for a in "${archs[@]}"; do
  case $a in linux-*) kernels+=("${a#linux-}") ;; *) foreign=1 ;; esac
done
setup_groups=(pip)
[ $foreign = 0 ] || setup_groups+=(emulation)
[ ${#kernels[@]} = 0 ] || setup_groups+=(kernels)
SPAWNMATRIX_KERNELS="${kernels[*]}" bash ci/setup.sh "${setup_groups[@]}"
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
  debian=12 console=ttyAMA0 memory=2048 native=0 kernel_debs='' report=''
  case $1 in
    linux-*)
      # Debian's cloud kernel of one release (see ci/setup.sh kernels), this machine's build.
      native=1 target=x86_64-unknown-linux-gnu debarch=amd64 flavour=cloud-amd64 libc=gnu
      kernel_debs=$cache/debs/kernel-${1#linux-} report=kernel-${1#linux-}-x86_64-linux-gnu.json
      [ -d "$kernel_debs" ] || { log "no kernel ${1#linux-} (5.10 6.1 6.12 6.16 7.2 7.3)"; return 1; }
      guest_debs=(libc6 libgcc-s1 dash strace libunwind8 liblzma5)
      qemu=qemu-system-x86_64 machine=("${x86_accel[@]}") console=ttyS0 ;;
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
    *) log "unknown architecture $1 (aarch64, armhf, s390x, ppc64el, riscv64, linux-VER)"; return 1 ;;
  esac
  [ -n "$kernel_debs" ] || kernel_debs=$cache/debs/$debarch
  [ -n "$report" ] || report=emulated-$1-linux-$libc.json
}

# The order the guest runs test binaries in: the spawn library and the conformance suite
# first, so that a slow tail cannot starve them; binaries not named here run after these.
order=(spawn conformance lib-spawnmatrix_spawn mechanism kernel_releases std_parity beyond_std lib-spawnmatrix
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
# A kernel guest's build is this machine's own (`cargo`, no --target, the default profile
# settings): it reuses what `cargo test` built.
build() {
  if [ $native = 1 ]; then
    cargo "$1" "${@:2}" --message-format=json-render-diagnostics >>"$work/build.json"
    return
  fi
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

# The kernel (vmlinuz, or vmlinux where Debian ships it uncompressed: ppc64el) and its
# config from the guest's kernel packages (boot/ up to Debian 13; from Debian 14 the
# linux-binary package has usr/lib/modules/VER/vmlinuz and linux-base its config): sets kdeb
# and kernel, and writes the config flags that matter to the spawn code into
# $work/kernel-config.
unpack_kernel() {
  local deb member config
  kdeb='' kernel='' config=''
  for deb in "$kernel_debs"/linux-*.deb; do
    member=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -E '^\./(boot/vmlinu[xz]-|usr/lib/modules/[^/]+/vmlinu[xz]$)' || true)
    if [ -n "$member" ]; then
      kdeb=$deb
      dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "$member"
      kernel=$work/${member#./}
    fi
    member=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -E '^\./(boot/config-|usr/lib/modules/[^/]+/config$)' || true)
    if [ -n "$member" ]; then
      dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "$member"
      config=$work/${member#./}
    fi
  done
  [ -n "$kernel" ] || { log "$arch: no kernel image in $kernel_debs"; return 1; }
  : >"$work/kernel-config"
  [ -n "$config" ] || return 0
  grep -E '^(# )?CONFIG_(SECCOMP|SECCOMP_FILTER|CGROUPS|CHECKPOINT_RESTORE|PID_NS|USER_NS|TIME_NS|TRANSPARENT_HUGEPAGE|HZ|PREEMPT|PREEMPT_DYNAMIC|PREEMPT_VOLUNTARY|PAGE_SIZE_[0-9A-Z]+|ARM64_[0-9]+K_PAGES|PPC_[0-9]+K_PAGES)[= ]' "$config" \
    | sed 's/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1=n/' >"$work/kernel-config" || true
}

# KVM only where it really runs a guest: a test boot of the first kernel guest's kernel under
# -accel kvm, with a one-line init, must reach that init; else TCG (nested virtualisation here
# opens /dev/kvm, then stops every guest with "KVM internal error").
x86_accel=(-accel tcg -cpu max)
choose_accel() {
  [ ${#kernels[@]} -gt 0 ] || return 0
  if [ ! -w /dev/kvm ]; then log "no writable /dev/kvm: kernel guests run under TCG"; return 0; fi
  local d saved_work=${work:-}
  d=$(mktemp -d)
  work=$d kernel_debs=$cache/debs/kernel-${kernels[0]} arch=kvm-test unpack_kernel
  mkdir -p "$d/root"
  dpkg-deb --fsys-tarfile "$cache"/debs/amd64/busybox-static_*.deb | tar -x -C "$d/root" --wildcards '*/busybox'
  printf '#!/bin/busybox sh\necho @@kvm-ok\n/bin/busybox poweroff -f\n' >"$d/root/init"
  chmod +x "$d/root/init"
  (cd "$d/root" && find . | cpio -o -H newc --quiet) >"$d/init.cpio"
  # -cpu host fails at once where KVM cannot set the host's MSRs; a named model boots in a
  # second where KVM works, and hangs on "KVM internal error" where it does not.
  local cpu
  for cpu in host qemu64; do
    if timeout 20 qemu-system-x86_64 -accel kvm -cpu "$cpu" -m 256 -nic none -nographic -no-reboot \
        -kernel "$kernel" -initrd "$d/init.cpio" -append "console=ttyS0 panic=-1 quiet rdinit=/init" \
        </dev/null >"$d/log" 2>&1 && grep -q '@@kvm-ok' "$d/log"; then
      x86_accel=(-accel kvm -cpu "$cpu")
      log "a test guest ran under KVM (-cpu $cpu): kernel guests use KVM"
      break
    fi
    log "KVM with -cpu $cpu did not run a test guest ($(grep -a -m1 -iE 'error|fail' "$d/log" | tr -cd '[:print:]' || echo 'no init output'))"
  done
  [ "${x86_accel[1]}" = kvm ] || log "kernel guests use TCG"
  rm -rf "$d"
  work=$saved_work
}
choose_accel

status=0
for arch in "${archs[@]}"; do
  configure "$arch" || { status=1; continue; }
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
  unpack_kernel
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
    # This machine's debug build carries debuginfo the guest's RAM need not hold.
    if [ $native = 1 ]; then objcopy --strip-debug "$exe" "$root$exe"; else cp "$exe" "$root$exe"; fi
    [ "$kind" = test ] || continue
    case $name in
      # zig's sysroots, not this CPU: runs in `cargo test` on the build machine.
      linkcheck_facts) echo "$name	zig is a build-machine tool (tests link probes against zig sysroots)" >>"$work/skipped"; continue ;;
    esac
    if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then
      echo "$name	not in --tests $only" >>"$work/skipped"; continue
    fi
    command[$name]=$exe
    [ -z "$test_filter" ] || command[$name]+=" $(shquote "$test_filter")"
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
  if [ -n "$fuzz_args" ]; then
    # The campaign goes into the stored report, which the guest prints back at the end.
    mkdir -p "$root/tmp/out"
    cp targets/reports/"$report" "$root/tmp/out/$report"
    printf '%s\t%s\t%s\n' spawnmatrix-fuzz /tmp "$tool fuzz $fuzz_args --record /tmp/out/$report" >>"$root/suite/run.list"
  elif [ $no_probe = 0 ]; then
    printf '%s\t%s\t%s\n' spawnmatrix-probe "$repo" "$tool probe --json $probe_args >/tmp/out/$report" >>"$root/suite/run.list"
  fi

  qemu_version=$($qemu --version | head -n1 | sed 's/.*version \([^ ]*\).*/\1/')
  kpkg=$(basename "$kdeb" .deb)
  if [ $native = 1 ]; then
    image="$qemu ${machine[*]} + Debian $(dpkg-deb -f "$kdeb" Package)"
  else
    image="$qemu ${machine[*]} + Debian $debian linux-image-$flavour"
  fi
  {
    echo "export HOME=/tmp/home PATH=/usr/sbin:/usr/bin:/sbin:/bin TMPDIR=/tmp RUST_BACKTRACE=1"
    echo "export SUITE_TIMEOUT=$program_timeout"
    # A conformance runner's hang guard (60 s natively); TCG is ~10x slower.
    echo "export SPAWNMATRIX_RUNNER_TIMEOUT=600 SPAWNMATRIX_CHILD_TIMEOUT=60"
    echo "export SPAWNMATRIX_PROVENANCE=emulated"
    echo "export SPAWNMATRIX_IMAGE=$(shquote "$image")"
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
      --accel "${machine[*]}" --kernel-package "${kpkg//_/ }" --kernel-config "$work/kernel-config" \
      "${summary_args[@]}"; then
    if [ $save = 1 ] && [ $no_probe = 0 ]; then
      python3 ci/emulate/results.py save "$work/files/$report" targets/reports/"$report" \
        --summary "$work/summary.json"
      log "$arch: saved targets/reports/$report"
    fi
  else
    status=1
  fi
  rm -rf "$root" "$work/initramfs.cpio"
done
exit $status
