#!/usr/bin/env bash
# The suite as a bare runner runs it (issue 32, item 3): every test binary of both packages
# runs in ci/bare-root.sh's root (no zig, git, python or C compiler on PATH, no /proc, `true`
# only in /usr/local/bin, a fresh HOME), and each must pass: a test that needs a missing tool
# skips and prints why (`skipped: TEST: REASON`, counted below), it never fails. Then, once per
# family off Linux (each targets/*/platform.yaml whose os is neither linux nor android), the
# expectations and header tests run with SPAWNMATRIX_TEST_FAMILY set to it (a C compiler in
# the root: the header tests preprocess), so they judge that family's generated claims file
# and the header's answers for it, and pass.
#
#   ci/checks/81-bare-runner.sh [--self-test]
#
# First, always, the self-test: two planted tests, built next to the real ones and removed
# after, must fail the same run. One is tests/linkcheck_facts.rs as it was before it skipped
# without zig (it panics); the other is tests/caps_header.rs's baseline test with the host's
# family written in (a macOS baseline must be refused as "not a linux-glibc baseline"), run
# as macOS and as FreeBSD. Each plant's failures must be its own: every failed zig test for
# want of zig, and the baseline test the family plant's only failure. --self-test stops after
# it. The binaries come from `cargo test` earlier in .ci/run (target/debug): nothing is
# rebuilt but the two planted files. Four data-only binaries and reliability's stress tests
# are left out of the bare run (said below, where they are listed).
#
# Cost, measured on this 2-core machine after `cargo test`: 90 s in all (self-test 4 s, 39
# binaries 75 s, 7 families x 2 binaries 11 s; load 2-3); 128 s at load ~3 with a clippy
# beside it. Before the leaving out, at load 10-30: 395-690 s for the binaries.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
self_test_only=no
[ "${1:-}" = --self-test ] && self_test_only=yes
[ "$(id -u)" = 0 ] || { echo "bare-runner: ci/bare-root.sh needs root" >&2; exit 2; }
target=$(cargo metadata --locked --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
binds=(--bind "$repo")
case $target/ in "$repo"/*) ;; *) binds+=(--bind "$target") ;; esac
logs=$(mktemp -d)
plants=(tests/bare_plant_zig.rs tests/bare_plant_family.rs)
# shellcheck disable=SC2317 # run by the trap
cleanup() { rm -f "${plants[@]}"; rm -rf "$logs"; }
trap cleanup EXIT

# The test binaries `cargo test --no-run ARGS` gives, one `EXE<TAB>PACKAGE-DIR<TAB>NAME` line each.
binaries() {
  cargo test --no-run --locked "$@" --message-format=json 2>"$logs/build.err" |
    python3 -c 'import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        url, _, tail = m["package_id"].partition("#")
        package = tail.split("@")[0] if "@" in tail else url.rsplit("/", 1)[-1]
        kind = m["target"]["kind"][0]
        name = package + ":" + m["target"]["name"] + ("" if kind == "test" else " (" + kind + ")")
        print(m["executable"], os.path.dirname(m["manifest_path"]), name, sep="\t")' ||
    { cat "$logs/build.err" >&2; return 1; }
}

# Runs one binary in the bare root: `run NAME EXE DIR FAMILY CC [ARG...]` (ARGs go to the
# test binary); prints one line (and the failures when it fails), the full log in $logs;
# returns its status.
run() {
  local name=$1 exe=$2 dir=$3 family=$4 cc=$5 log status=0 extra=()
  shift 5
  log=$logs/$(echo "$name.$family" | tr -c 'A-Za-z0-9.\n-' _).log
  [ "$cc" = yes ] || extra+=(--no-cc)
  [ -z "$family" ] || extra+=(--env "SPAWNMATRIX_TEST_FAMILY=$family")
  bash ci/bare-root.sh ${extra[@]+"${extra[@]}"} "${binds[@]}" --cwd "$dir" \
    --env "CARGO_MANIFEST_DIR=$dir" -- "$exe" "$@" >"$log" 2>&1 || status=$?
  local result skipped
  result=$(grep -E '^test result: ' "$log" | tail -n 1 || true)
  skipped=$(grep -c '^skipped: ' "$log" || true)
  printf '%-4s %-44s %s; %s skipped\n' "$([ $status = 0 ] && echo ok || echo FAIL)" \
    "$name${family:+ as $family}" "${result#test result: }" "$skipped"
  if [ $status != 0 ]; then
    # The failures libtest lists, or the end of the log when it died before listing them.
    if grep -q '^failures:' "$log"; then
      sed -n '/^failures:/,/^test result/p' "$log" | head -n 80
    else
      tail -n 40 "$log"
    fi
  fi
  return $status
}

# The tests a libtest log lists as failed (its last `failures:` list), one a line.
failed_tests() {
  awk '/^failures:$/ { list = ""; inside = 1; next }
       inside && /^    / { sub(/^    /, ""); list = list $0 "\n"; next }
       inside && NF { inside = 0 }
       END { printf "%s", list }' "$1"
}

# The off-Linux families, as the claims' files name them.
families() {
  local f
  for f in targets/*/platform.yaml; do
    case $(sed -n 's/^os: *//p' "$f") in linux | android | "") continue ;; esac
    sed -n 's/^family: *//p' "$f"
  done
}

self_test() {
  echo "bare-runner: self-test (two planted tests must fail the check)"
  # The zig test as it was before item 1: no skip, a panic when zig is not found.
  grep -q '^use tools::zig;$' tests/linkcheck_facts.rs || { echo "bare-runner: the zig plant no longer applies to tests/linkcheck_facts.rs" >&2; return 1; }
  sed 's/^use tools::zig;$/fn zig() -> Option<spawnmatrix::linkcheck::Zig> { Some(spawnmatrix::linkcheck::Zig::find().expect("zig")) }/' \
    tests/linkcheck_facts.rs >tests/bare_plant_zig.rs
  # The baseline test as it was before item 1: a macOS baseline, refused as linux-glibc's.
  local pick='.find(|(_, family)| Some(family) != detected.as_ref())' want='let want = format!("not a {family} baseline");'
  if ! { grep -qF "$pick" tests/caps_header.rs && grep -qF "$want" tests/caps_header.rs; }; then
    echo "bare-runner: the family plant no longer applies to tests/caps_header.rs" >&2; return 1
  fi
  python3 - "$pick" "$want" <<'EOF'
import sys
pick, want = sys.argv[1:]
text = open("tests/caps_header.rs").read()
text = text.replace(pick, '.find(|(_, family)| family == "macos")')
text = text.replace(want, 'let want = "not a linux-glibc baseline".to_string();')
open("tests/bare_plant_family.rs", "w").write(text)
EOF
  local lines status=0
  lines=$(binaries --test bare_plant_zig --test bare_plant_family) || return 1
  rm -f "${plants[@]}"
  local exe dir name
  while IFS=$'\t' read -r exe dir name; do
    case $name in
      *bare_plant_zig)
        # Every failure must be the plant's: each failed test's panic names ZigMissing.
        if run "$name" "$exe" "$dir" "" no; then
          echo "bare-runner: self-test: the planted zig-only test passed the check" >&2; status=1
        else
          local log failed missing
          log=$(echo "$logs"/*bare_plant_zig*.log)
          failed=$(failed_tests "$log" | wc -l)
          missing=$(grep -c "ZigMissing" "$log" || true)
          if [ "$failed" = 0 ] || [ "$failed" != "$missing" ]; then
            echo "bare-runner: self-test: the zig plant failed $failed tests, $missing of them for want of zig" >&2; status=1
          fi
        fi ;;
      *bare_plant_family)
        local f
        for f in macos freebsd; do
          # The planted test must be the only failure.
          local failed
          if run "$name" "$exe" "$dir" "$f" yes; then
            echo "bare-runner: self-test: the planted host-family test passed as $f" >&2; status=1
          else
            failed=$(failed_tests "$logs"/*bare_plant_family*"$f"*.log | tr '\n' ' ')
            if [ "$failed" != "a_baseline_of_another_family_is_an_error " ]; then
              echo "bare-runner: self-test: as $f the family plant failed other tests than its baseline one: $failed" >&2; status=1
            fi
          fi
        done ;;
    esac
  done <<<"$lines"
  [ $status = 0 ] && echo "bare-runner: self-test passed: each plant fails the check (above)"
  return $status
}

start=$SECONDS
self_test
echo "bare-runner: self-test took $((SECONDS - start)) s"
[ $self_test_only = no ] || exit 0

# Left out of the bare run, for time: each passed in the bare root when this check was
# written, runs in the `cargo test` step before this one, and uses nothing a bare root
# lacks. The data-only binaries read the committed reports, claims and summary through the
# tool (18-83 s each here); reliability's load and storm tests are stress runs of a minute or
# more each.
data_only=" spawnmatrix:matrix_cli spawnmatrix:claims_facts spawnmatrix:summary_states spawnmatrix:summary_consistency "
declare -A test_args=([spawnmatrix:reliability]="--skip load:: --skip storm::")

start=$SECONDS
lines=$(binaries)
status=0 count=0 left=0
echo "bare-runner: every test binary in the bare root (no zig, git, python or cc; no /proc)"
while IFS=$'\t' read -r exe dir name; do
  case $data_only in *" $name "*) echo "left $name out (data only)"; left=$((left + 1)); continue ;; esac
  count=$((count + 1))
  # shellcheck disable=SC2086 # the arguments split on purpose
  run "$name" "$exe" "$dir" "" no ${test_args[$name]:-} || status=1
done <<<"$lines"
echo "bare-runner: $count binaries took $((SECONDS - start)) s ($left data-only ones left out)"

start=$SECONDS
echo "bare-runner: the expectations and header tests as each family off Linux (cc in the root)"
mapfile -t fams < <(families)
[ ${#fams[@]} -gt 0 ] || { echo "bare-runner: no family off Linux in targets/" >&2; exit 1; }
while IFS=$'\t' read -r exe dir name; do
  case $name in spawnmatrix:expectations | spawnmatrix:caps_header) ;; *) continue ;; esac
  for f in "${fams[@]}"; do run "$name" "$exe" "$dir" "$f" yes || status=1; done
done <<<"$lines"
echo "bare-runner: ${#fams[@]} families took $((SECONDS - start)) s"
[ $status = 0 ] || echo "bare-runner: a test failed in the bare root (above); a test that needs a tool must skip without it and say why (tests/tools)" >&2
exit $status
