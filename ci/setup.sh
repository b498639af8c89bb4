#!/usr/bin/env bash
# Installs what spawnmatrix's checks need on a fresh Debian or Ubuntu machine. Idempotent: each
# step checks before it installs, so .ci/run can call it every time. Pass group names to limit
# the work: rust, msrv, nightly, apt-base, apt-containers, apt-browser, pip, emulation,
# kernels (default: all but kernels).
#   rust     the cross targets, clippy and rustfmt on the default toolchain
#   msrv     the toolchain of each package's rust-version (ci/checks/55-msrv.sh)
#   nightly  the nightly pinned in ci/nightly-toolchain, with rust-src (Cygwin, -Zbuild-std)
#   pip      the Python tools of ci/requirements.txt, in the venv that ci/env.sh names
#   emulation  ci/emulate.sh: QEMU, cpio, its Rust targets, and each guest's Debian packages
#            (kernel, busybox-static, dash + libc6; libgcc-s1 for the glibc guests), fetched with
#            `apt-get download` into $SPAWNMATRIX_CACHE/debs/ARCH (riscv64: from trixie)
#   kernels  ci/emulate.sh's x86_64 kernel guests: qemu-system-x86 and Debian's cloud kernels
#            (bullseye 5.10 ... experimental 7.3, those SPAWNMATRIX_KERNELS names) into
#            $SPAWNMATRIX_CACHE/debs/kernel-VER, with the guests' userland in debs/amd64
set -euo pipefail
cd "$(dirname "$0")/.."
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(rust msrv nightly apt-base apt-containers apt-browser pip emulation)
want() { local g; for g in "${groups[@]}"; do [ "$g" = "$1" ] && return 0; done; return 1; }
log() { printf 'setup: %s\n' "$*" >&2; }
# shellcheck source=ci/env.sh
. ci/env.sh

# apt as root, or through sudo (GitHub's runners); other apt runs may hold the dpkg lock, so
# every apt-get waits for it instead of failing at once.
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
apt_get() { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"; }
apt_updated=0
apt_install() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -gt 0 ] || return 0
  if [ $apt_updated = 0 ]; then apt_get update -qq; apt_updated=1; fi
  log "apt-get install ${missing[*]}"
  apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
toolchain_install() { # toolchain [component...]
  local tc=$1 c
  shift
  rustup toolchain list | grep -q "^$tc" \
    || { log "rustup toolchain install $tc"; rustup toolchain install "$tc" --profile minimal >/dev/null; }
  for c in "$@"; do
    rustup component list --toolchain "$tc" --installed | grep -q "^$c" \
      || { log "rustup component add $c --toolchain $tc"; rustup component add "$c" --toolchain "$tc" >/dev/null; }
  done
}

if want rust; then
  for t in x86_64-unknown-linux-musl x86_64-unknown-freebsd x86_64-apple-darwin aarch64-apple-darwin aarch64-unknown-linux-musl \
           i686-unknown-linux-gnu i686-unknown-linux-musl \
           x86_64-unknown-netbsd x86_64-unknown-illumos aarch64-linux-android x86_64-pc-windows-gnu wasm32-unknown-unknown; do
    rustup target list --installed | grep -qx "$t" || { log "rustup target add $t"; rustup target add "$t" >/dev/null; }
  done
  rustup component list --installed | grep -q '^clippy' || rustup component add clippy rustfmt >/dev/null
fi
# The Cygwin cross-check and the workflow's Cygwin job build std from source (-Zbuild-std)
# with this one nightly: tier-3 targets break between nightlies.
# cargo-fuzz drives the parser fuzzing (ci/checks/56-parser-fuzz.sh) with that nightly.
if want nightly; then
  toolchain_install "$(cat ci/nightly-toolchain)" rust-src
  command -v cargo-fuzz >/dev/null \
    || { log "cargo install cargo-fuzz"; cargo install cargo-fuzz --version 0.13.2 --locked >/dev/null; }
fi
# gcc + libc6-dev (libc.a) build the static child helper in build.rs; musl-gcc builds it for the
# musl target; binutils' objdump checks that no newer spawn symbol is linked hard (a sys test).
# actionlint checks the workflow's run: blocks with shellcheck; 60-workflows.sh the scripts too.
# gcc-multilib links i686-unknown-linux-gnu and builds its helper (`gcc -m32`; the i686 musl
# helper comes from the pinned zig below).
if want apt-base; then apt_install gcc libc6-dev binutils musl-tools debootstrap xz-utils shellcheck gcc-multilib; fi
# The fake-vfork environments of ci/checks/48-fake-vfork.sh.
if want apt-base; then apt_install valgrind qemu-user-static; fi
# strace observes which call made each strategy's child (spawn/tests/mechanism.rs).
if want apt-base; then apt_install strace; fi
if want apt-containers; then apt_install podman runc uidmap; fi
if want apt-browser; then apt_install chromium chromium-driver; fi
if want pip; then
  # Debian and Ubuntu ship python3 without venv/ensurepip (and without pip): install them first.
  python3 -c 'import venv, ensurepip' 2>/dev/null || apt_install python3 python3-venv python3-pip
  if [ ! -x "$SPAWNMATRIX_VENV/bin/python3" ]; then
    log "python3 -m venv $SPAWNMATRIX_VENV"
    python3 -m venv "$SPAWNMATRIX_VENV"
  fi
  # Reinstall only when ci/requirements.txt changed since the last install into this venv.
  if ! cmp -s ci/requirements.txt "$SPAWNMATRIX_VENV/.spawnmatrix-requirements"; then
    log "pip install -r ci/requirements.txt into $SPAWNMATRIX_VENV"
    "$SPAWNMATRIX_VENV/bin/python3" -m pip install -q --disable-pip-version-check -r ci/requirements.txt
    cp ci/requirements.txt "$SPAWNMATRIX_VENV/.spawnmatrix-requirements"
  fi
fi
# Each package's declared minimum Rust, which ci/checks/55-msrv.sh builds every target with
# (after pip, which installs python3 on a machine that had none).
if want msrv; then
  for v in $(python3 ci/pins.py msrv-packages | awk '{print $2}' | sort -u); do toolchain_install "$v"; done
fi
if want emulation || want kernels; then
  # qemu-system-misc has qemu-system-s390x and qemu-system-riscv64; qemu-system-ppc has
  # qemu-system-ppc64.
  apt_install qemu-system-arm qemu-system-misc qemu-system-ppc qemu-system-x86 cpio
  for t in aarch64-unknown-linux-musl armv7-unknown-linux-gnueabihf s390x-unknown-linux-gnu \
           powerpc64le-unknown-linux-gnu riscv64gc-unknown-linux-gnu; do
    rustup target list --installed | grep -qx "$t" || { log "rustup target add $t"; rustup target add "$t" >/dev/null; }
  done
  cache=${SPAWNMATRIX_CACHE:-}
  [ -n "$cache" ] || { [ "$(id -u)" = 0 ] && cache=/var/cache/spawnmatrix || cache=$HOME/.cache/spawnmatrix; }
  # As root, apt drops to its sandbox user, which cannot write into root's cache folder.
  download() { apt-get -o APT::Sandbox::User="$(id -un)" download -qq "$@"; }
  # A private apt for one Debian suite and architecture the machine's own sources lack
  # (riscv64 is a Debian release architecture from trixie on; bookworm has no riscv64 port):
  # its own sources, lists, cache and an empty dpkg status under $1, so the machine's apt is
  # not changed. The mirror is the machine's own Debian mirror, read at run time.
  foreign_apt() { # dir suite arch apt-get-args...
    local d=$1 suite=$2 arch=$3
    shift 3
    apt-get -o Dir::State="$d/state" -o Dir::State::status="$d/state/status" \
      -o Dir::Cache="$d/cache" -o Dir::Etc::SourceList="$d/sources.list" \
      -o Dir::Etc::SourceParts="$d/empty" -o Dir::Etc::Preferences="$d/empty/preferences" \
      -o Dir::Etc::PreferencesParts="$d/empty" \
      -o APT::Architecture="$arch" -o APT::Architectures::="$arch" \
      -o APT::Sandbox::User="$(id -un)" -o Debug::NoLocking=1 -qq "$@"
  }
  # The first http(s) URI of the machine's apt sources that serves Debian (a path ending in
  # /debian), from deb822 .sources files or one-line sources.list entries.
  debian_mirror() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
      [ ! -f "$f" ] || awk '/^URIs:/ {for (i = 2; i <= NF; i++) print $i}' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ ! -f "$f" ] || awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; break}}' "$f"
    done
  }
  # (awk reads to the end: a reader that stops early would fail the pipe under pipefail.)
  mirror() { debian_mirror | awk '/^https?:\/\/[^ ]*\/debian\/?$/ && !found {print; found = 1}'; }
  # Downloads into $cache/debs/NAME: NAME, Debian arch, suite (`-`: the machine's own), kernel
  # package (`-`: none; a metapackage or a versioned linux-image-*), then the other packages.
  fetch_debs() { # spec
    local spec=$1 name arch suite meta rest packages dir apt_dir url
    read -r name arch suite meta rest <<<"$spec"
    read -r -a packages <<<"$rest"
    dir=$cache/debs/$name
    # `complete` holds the spec it was downloaded for: a changed package list downloads again.
    [ "$(cat "$dir/complete" 2>/dev/null)" = "$spec" ] && return 0
    if [ "$suite" = - ]; then
      get() { download "$@"; }
      if [ "$arch" != "$(dpkg --print-architecture)" ] && ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        log "dpkg --add-architecture $arch"
        "${sudo[@]}" dpkg --add-architecture "$arch"
        apt_updated=0
      fi
      # A foreign index can be mid-sync on the mirror: use what was fetched, and let a package
      # that is then missing fail its download below.
      if [ $apt_updated = 0 ]; then
        apt_get update -qq || log "apt-get update reported errors (continuing)"
        apt_updated=1
      fi
    else
      apt_dir=$cache/apt-$suite-$arch
      get() { foreign_apt "$apt_dir" "$suite" "$arch" download "$@"; }
      url=$(mirror)
      [ -n "$url" ] || { log "no Debian mirror in /etc/apt/sources*: cannot fetch $suite $arch"; exit 1; }
      mkdir -p "$apt_dir"/state/lists/partial "$apt_dir"/cache/archives/partial "$apt_dir"/empty
      : >"$apt_dir/state/status"
      echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $url $suite main" >"$apt_dir/sources.list"
      log "apt-get update for Debian $suite $arch (private lists in $apt_dir)"
      foreign_apt "$apt_dir" "$suite" "$arch" update
    fi
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    (
      cd "$dir.tmp"
      [ ${#packages[@]} = 0 ] || get "${packages[@]/%/:$arch}"
      [ "$meta" != - ] || exit 0
      get "$meta:$arch"
      # A metapackage depends on the versioned image package that holds the kernel.
      image=$(dpkg-deb -f "$meta"_*.deb Depends | { grep -o 'linux-image-[0-9][^ ,]*' || true; } | head -n1)
      [ -z "$image" ] || { get "$image:$arch"; meta=$image; }
      # From Debian 14 (and its backports) the image package holds no kernel: it depends on
      # linux-binary-VER (the vmlinuz) and linux-base-VER (its config).
      for dep in $(dpkg-deb -f "$meta"_*.deb Depends | grep -o 'linux-\(binary\|base\)-[0-9][^ ,]*'); do
        get "$dep:$arch"
      done
    )
    printf '%s\n' "$spec" >"$dir.tmp/complete" && rm -rf "$dir" && mv "$dir.tmp" "$dir"
    log "downloaded Debian $arch packages into $dir"
  }
fi
if want emulation; then
  # dash is the guest's /bin/sh (busybox would pick its applet from a changed argv[0]); it runs
  # on Debian's glibc, which the musl guests get for it alone.
  for spec in "arm64 arm64 - linux-image-arm64 busybox-static dash libc6" \
              "armhf armhf - linux-image-armmp-lpae busybox-static dash libc6 libgcc-s1" \
              "s390x s390x - linux-image-s390x busybox-static dash libc6 libgcc-s1" \
              "ppc64el ppc64el - linux-image-powerpc64le busybox-static dash libc6 libgcc-s1" \
              "riscv64 riscv64 trixie linux-image-riscv64 busybox-static dash libc6 libgcc-s1"; do
    fetch_debs "$spec"
  done
fi
# The x86_64 kernel guests (ci/emulate.sh linux-VER): the machine's own userland (Debian 12's
# glibc, strace for tests/mechanism.rs) and one Debian cloud kernel per release, each from its
# suite. SPAWNMATRIX_KERNELS names the ones to fetch (default: all).
if want kernels; then
  fetch_debs "amd64 amd64 - - busybox-static dash libc6 libgcc-s1 strace libunwind8 liblzma5"
  for spec in "kernel-5.10 amd64 bullseye linux-image-cloud-amd64" \
              "kernel-6.1 amd64 - linux-image-cloud-amd64" \
              "kernel-6.12 amd64 trixie linux-image-cloud-amd64" \
              "kernel-6.16 amd64 trixie-backports linux-image-6.16.12+deb13-cloud-amd64" \
              "kernel-7.2 amd64 sid linux-image-cloud-amd64" \
              "kernel-7.3 amd64 experimental linux-image-cloud-amd64"; do
    read -r name _ <<<"$spec"
    [[ " ${SPAWNMATRIX_KERNELS:-5.10 6.1 6.12 6.16 7.2 7.3} " == *" ${name#kernel-} "* ]] || continue
    fetch_debs "$spec"
  done
fi
