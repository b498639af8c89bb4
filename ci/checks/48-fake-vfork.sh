#!/usr/bin/env bash
# The spawn code where CLONE_VM|CLONE_VFORK is quietly run as a plain fork, so an error the
# child writes to shared memory never reaches the parent: under valgrind (Debian's 3.19,
# which also answers clone3 with ENOSYS) and under qemu-user (Debian's qemu-user-static 7.2,
# running the aarch64 musl build). Under both, every error must still be returned, Auto must
# have found the CLONE_VM strategies refused (their probe's sentinel never arrives) and taken
# another one, and a forced CLONE_VM strategy must answer Unsupported.
#
# A subset, to stay within a few minutes (valgrind runs the test harness ~20x slower):
# - spawn/tests/fake_vfork.rs, whole, under both tools: errors under every strategy (missing
#   program, chdir to a file, an fd beyond the limit), detection, forced Unsupported;
# - under valgrind also the spawn suite's error and strategy tests (tests/spawn.rs:
#   missing_program, exec_errors, child_side_failures, failed_spawns_leak_no_fd,
#   auto_takes_the_fastest_strategy_available_here) and the conformance suite's exec cases.
# qemu-user runs only fake_vfork: the rest of the suite needs the tool and its child helper
# built for aarch64 (82-emulated does that, under qemu-system, where vfork is real), and a
# foreign helper cannot be exec'd here (no binfmt_misc).
# shellcheck source=ci/env.sh
. ci/env.sh
executable() { # target name, then cargo arguments: the path of the executable cargo built
  local name=$1; shift
  "$@" --locked --message-format=json 2>/dev/null | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$name"
}
fake=$(executable fake_vfork cargo test --no-run -p spawnmatrix-spawn --test fake_vfork)
suite=$(executable spawn cargo test --no-run --test spawn)
conformance=$(executable conformance cargo test --no-run --test conformance)
arm=$(CARGO_PROFILE_TEST_DEBUG=false executable fake_vfork cargo-zigbuild test --no-run \
  -p spawnmatrix-spawn --test fake_vfork --target aarch64-unknown-linux-musl)
for exe in "$fake" "$suite" "$conformance" "$arm"; do
  [ -x "$exe" ] || { echo "48-fake-vfork: a build was not found" >&2; exit 1; }
done

timed() { # description, then the command
  local what=$1 start=$SECONDS; shift
  echo "-- $what"
  "$@"
  echo "-- $what: $((SECONDS - start)) s"
}
export SPAWNMATRIX_FAKE_VFORK=valgrind
vg=(valgrind -q --error-exitcode=99)
timed "valgrind: fake_vfork" "${vg[@]}" "$fake" -q --test-threads=1
timed "valgrind: spawn suite (errors, strategies)" "${vg[@]}" "$suite" -q --test-threads=1 \
  missing_program exec_errors child_side_failures failed_spawns_leak_no_fd auto_takes_the_fastest
timed "valgrind: conformance (exec cases)" "${vg[@]}" "$conformance" -q --test-threads=1 exec-
export SPAWNMATRIX_FAKE_VFORK=qemu-user
timed "qemu-user (aarch64, musl): fake_vfork" qemu-aarch64-static "$arm" -q --test-threads=1
