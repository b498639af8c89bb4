#!/bin/busybox sh
# shellcheck shell=dash
# The guest's /init (run by busybox sh as PID 1 in a ci/emulate.sh initramfs). Mounts what
# the suite needs, runs each program listed in /suite/run.list, prints each one's output
# between markers on the console for the host to parse, then powers the machine off.
# /suite/env (written by the host) sets the suite's environment and SUITE_TIMEOUT, each
# program's time limit in seconds (rc=143 when it is hit).
/bin/busybox --install -s
mount -t proc proc /proc
# Seconds from the kernel's start to this init: the guest's boot time.
echo "@@emu boot-seconds $(cut -d' ' -f1 /proc/uptime)"
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs shm /dev/shm
# No tmpfs over /tmp: the initramfs root is already writable memory, and the checkout sits at
# its host path (the tests find their files through CARGO_MANIFEST_DIR), which a checkout
# under /tmp would have hidden.
mkdir -p /tmp
chmod 1777 /tmp
mkdir -p /tmp/home /tmp/out
# The loopback interface: the guest has no other (-nic none), and the kernel leaves lo down
# until something brings it up (std's tests connect to 127.0.0.1). Bringing it up gives it
# 127.0.0.1 and ::1.
ip link set lo up 2>/dev/null || ifconfig lo up
. /suite/env
echo "@@emu uname $(uname -srm)"
echo "@@emu nproc $(nproc)"
# The page size (the kernel's, for this process's mappings) and the byte order, as the guest
# sees them; they go into the report's provenance.
page=$(awk '/^KernelPageSize:/ {print $2 " " $3; exit}' /proc/self/smaps)
case $(printf '\001\000' | od -An -tx2 | tr -d ' ') in
  0001) order=little-endian ;;
  0100) order=big-endian ;;
  *) order="unknown byte order" ;;
esac
echo "@@emu pagesize $page"
echo "@@emu byteorder $order"
export SPAWNMATRIX_HOST="$SPAWNMATRIX_HOST; guest: $page pages, $order"
# Each line of run.list: NAME<TAB>DIR<TAB>COMMAND...
while IFS='	' read -r name dir command; do
  [ -n "$name" ] || continue
  echo "@@emu begin $name"
  start=$(date +%s)
  # setsid: each program leads its own session and process group, as under a login shell
  # (children of PID 1 are otherwise in process group 0, which setpgid cannot join).
  ( cd "$dir" && eval "exec setsid timeout $SUITE_TIMEOUT $command" ) </dev/null 2>&1
  rc=$?
  echo "@@emu end $name rc=$rc seconds=$(( $(date +%s) - start ))"
done < /suite/run.list
# Files the programs wrote for the host (reports), printed whole.
for f in /tmp/out/*; do
  [ -f "$f" ] || continue
  echo "@@emu file-begin ${f##*/}"
  cat "$f"
  echo
  echo "@@emu file-end ${f##*/}"
done
echo "@@emu done"
sync
poweroff -f
