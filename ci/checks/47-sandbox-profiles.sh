#!/usr/bin/env bash
# The whole spawn suite under each seccomp profile (src/sandbox): clone3 refused with ENOSYS
# or EPERM, and CLONE_VM refused. `spawnmatrix sandbox` installs the filter and execs the test
# binary, so every test, each forcing every strategy, runs in the sandbox: an available
# strategy must work and an unavailable one must answer Unsupported. (tests/profiles.rs, part
# of `cargo test`, checks which strategy Auto takes under each, and RLIMIT_NPROC.)
executable() { # target name, then cargo arguments: the path of the executable cargo built
  local name=$1; shift
  cargo "$@" --locked --message-format=json 2>/dev/null | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$name"
}
cli=$(executable spawnmatrix build --bin spawnmatrix)
spawn_tests=$(executable spawn test --no-run --test spawn)
[ -x "$cli" ] && [ -x "$spawn_tests" ] || { echo "47-sandbox-profiles: builds not found" >&2; exit 1; }
for profile in clone3-enosys clone3-eperm no-clone-vm; do
  echo "-- spawn suite under $profile"
  "$cli" sandbox "$profile" -- "$spawn_tests" -q
done
