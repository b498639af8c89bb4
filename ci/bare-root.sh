#!/usr/bin/env bash
# Runs one program in a bare root, as a macOS, FreeBSD or Cygwin runner would see this
# machine: no zig, git or python on PATH (and with --no-cc no C compiler), no /proc and no
# /sys mounted (so /dev/fd, a link into /proc, leads nowhere), `true` only in
# /usr/local/bin, a fresh empty HOME and TMPDIR, and only these variables in the
# environment: PATH, HOME, TMPDIR, USER, LANG and each --env NAME=VALUE.
#
#   ci/bare-root.sh [--no-cc] [--cwd DIR] [--env NAME=VALUE]... [--bind DIR]... -- PROGRAM [ARG...]
#
# The root is a tmpfs in a private mount namespace (unshare -m, so nothing it mounts is seen
# outside and it is gone when the program ends): the host's /usr and /etc read-only, /usr/bin
# and /usr/local replaced by folders holding links to every host program but the ones above,
# /dev bound in, and each --bind DIR (the checkout, the build folder) at its own path, so the
# paths compiled into the tests hold; --cwd is where the program starts (default /). The
# host's own libraries run the host's binaries, so nothing is rebuilt. Needs root (mount,
# chroot). ci/checks/81-bare-runner.sh runs every test binary in it.
set -euo pipefail
cc=yes cwd=/ envs=() binds=()
while [ $# -gt 0 ]; do
  case $1 in
    --no-cc) cc=no; shift ;;
    --cwd) cwd=$2; shift 2 ;;
    --env) envs+=("$2"); shift 2 ;;
    --bind) binds+=("$(realpath "$2")"); shift 2 ;;
    --) shift; break ;;
    *) echo "bare-root: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: ci/bare-root.sh [--no-cc] [--cwd DIR] [--env N=V]... [--bind DIR]... -- PROGRAM [ARG...]" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bare-root: mount and chroot need root" >&2; exit 2; }
command -v unshare >/dev/null || { echo "bare-root: no unshare (util-linux)" >&2; exit 2; }

# What a bare runner lacks, as patterns of program names in /usr/bin.
hidden=('zig*' 'git' 'git-*' 'python*' 'pydoc*' 'pip*' 'true')
[ $cc = yes ] || hidden+=('cc' 'c89*' 'c99*' 'gcc*' 'g++*' 'c++' 'cpp*' 'clang*' 'tcc' '*-linux-gnu-gcc*' '*-linux-gnu-cpp*')

root=$(mktemp -d /tmp/spawnmatrix-bare.XXXXXX)
trap 'rmdir "$root" 2>/dev/null || true' EXIT
# The inner script runs in the new mount namespace; its mounts end with it.
# shellcheck disable=SC2016 # expanded by the inner bash
inner='
set -euo pipefail
root=$1 cc=$2 cwd=$3; shift 3
hidden=(); while [ "$1" != --binds ]; do hidden+=("$1"); shift; done; shift
binds=(); while [ "$1" != --envs ]; do binds+=("$1"); shift; done; shift
envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
mount -t tmpfs -o mode=755 bare "$root"
mkdir -p "$root"/{usr,etc,dev,proc,sys,tmp,run,root,var/tmp,.host/usr}
chmod 1777 "$root/tmp" "$root/var/tmp"
mount --bind /usr "$root/usr"
# The links point into the whole of /usr seen again at /.host/usr, not into /usr/bin alone:
# gcc finds cc1 relative to its resolved path (../lib/gcc, ../libexec/gcc).
mount --bind /usr "$root/.host/usr"
mount -t tmpfs -o mode=755 bare-bin "$root/usr/bin"
mount -t tmpfs -o mode=755 bare-local "$root/usr/local"
shopt -s nullglob
links=()
for p in /usr/bin/*; do
  name=${p##*/} keep=yes
  for h in "${hidden[@]}"; do
    # shellcheck disable=SC2053 # a glob pattern on purpose
    [[ $name == $h ]] && keep=no
  done
  [ $keep = no ] || links+=("/.host/usr/bin/$name")
done
ln -s -t "$root/usr/bin" "${links[@]}"
mkdir -p "$root/usr/local/bin"
cp /usr/bin/true "$root/usr/local/bin/true"
mount -o remount,bind,ro "$root/usr"
mount -o remount,bind,ro "$root/.host/usr"
mount --bind /etc "$root/etc"
mount -o remount,bind,ro "$root/etc"
mount --rbind /dev "$root/dev"
# The merged-/usr links (/bin -> usr/bin, ...); a host without merged /usr is not handled.
for top in bin sbin lib lib32 lib64 libx32; do
  if [ -L "/$top" ]; then ln -s "$(readlink "/$top")" "$root/$top"
  elif [ -e "/$top" ]; then echo "bare-root: /$top is not a link (no merged /usr)" >&2; exit 2
  fi
done
for b in "${binds[@]}"; do
  mkdir -p "$root$b"
  mount --bind "$b" "$root$b"
done
gone=(zig git python3 python)
[ "$cc" = yes ] || gone+=(cc gcc clang)
for p in "${gone[@]}"; do
  if chroot "$root" /usr/bin/env PATH=/usr/local/bin:/usr/bin:/bin /bin/sh -c "command -v $p" >/dev/null; then
    echo "bare-root: $p is still on PATH in the root" >&2; exit 1
  fi
done
[ ! -e "$root/bin/true" ] && [ ! -e "$root/usr/bin/true" ] && [ ! -e "$root/proc/self" ] \
  || { echo "bare-root: the root still has /bin/true or a /proc" >&2; exit 1; }
exec chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root TMPDIR=/tmp \
  USER=root LANG=C.UTF-8 ${envs[@]+"${envs[@]}"} /bin/sh -c '"'"'cd "$0" && exec "$@"'"'"' "$cwd" "$@"
'
status=0
unshare --mount --propagation private -- bash -c "$inner" bare-root "$root" "$cc" "$cwd" \
  "${hidden[@]}" --binds ${binds[@]+"${binds[@]}"} --envs ${envs[@]+"${envs[@]}"} -- "$@" || status=$?
exit $status
