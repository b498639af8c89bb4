#!/usr/bin/env bash
# The whole spawn suite under each seccomp profile (src/sandbox): clone3 refused with ENOSYS
# or EPERM, and CLONE_VM process creation refused. `spawnmatrix sandbox` installs the filter
# and execs the test binary, so every test, each forcing every strategy, runs in the sandbox:
# an available strategy must work and an unavailable one must answer Unsupported.
# (tests/profiles.rs, part of `cargo test`, checks which strategy Auto takes under each, and
# RLIMIT_NPROC.) The glibc build skips clone3-eperm: glibc >= 2.34 cannot create a thread
# there (pthread_create gives up on clone3's EPERM), so no test harness runs; the musl build
# (its threads use clone) runs under all three.
executable() { # target name, then cargo arguments: the path of the executable cargo built
  local name=$1; shift
  cargo "$@" --locked --message-format=json 2>/dev/null | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$name"
}
cli=$(executable spawnmatrix build --bin spawnmatrix)
gnu=$(executable spawn test --no-run --test spawn)
musl=$(executable spawn test --no-run --test spawn --target x86_64-unknown-linux-musl)
for exe in "$cli" "$gnu" "$musl"; do
  [ -x "$exe" ] || { echo "47-sandbox-profiles: a build was not found" >&2; exit 1; }
done
run() { # profile test-binary description
  echo "-- spawn suite ($3) under $1"
  "$cli" sandbox "$1" -- "$2" -q
}
run clone3-enosys "$gnu" glibc
run no-clone-vm "$gnu" glibc
for profile in clone3-enosys clone3-eperm no-clone-vm; do run "$profile" "$musl" musl; done
