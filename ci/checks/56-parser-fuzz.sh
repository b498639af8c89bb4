#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz + libFuzzer, the nightly in ci/nightly-toolchain) of the
# four loaders that read files:
# conformance case YAML, report/matrix JSON, platform.yaml, expectation files. Each target runs
# for SECONDS (default 15) from the committed corpus in fuzz/corpus/<target>; new inputs go to
# a scratch folder, so the committed corpus stays as it is. A panic or a sanitizer report fails
# the check; the input is kept under $out and printed, to become a test in tests/bad_input/.
seconds=${SPAWNMATRIX_PARSER_FUZZ_SECONDS:-15}
out=${SPAWNMATRIX_PARSER_FUZZ_OUT:-$(mktemp -d)}
cd fuzz || exit 1
toolchain=+$(cat ../ci/nightly-toolchain)
# cargo fuzz has no --locked: resolve with it first, so the build finds nothing to change
# in the committed fuzz/Cargo.lock.
cargo "$toolchain" metadata --locked --format-version 1 >/dev/null
cargo "$toolchain" fuzz build -O
for target in case_yaml report_json platform_yaml expectations_yaml; do
  mkdir -p "$out/$target/new" "$out/$target/crashes"
  echo "-- $target: ${seconds}s"
  if ! cargo "$toolchain" fuzz run -O "$target" "$out/$target/new" "corpus/$target" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$out/$target/crashes/" -print_final_stats=1 2>"$out/$target/log"; then
    tail -40 "$out/$target/log"
    for crash in "$out/$target/crashes/"*; do
      echo "input that failed ($crash):"
      base64 -w0 "$crash"
      echo
    done
    exit 1
  fi
  grep -E '^stat::number_of_executed_units|^Done [0-9]+ runs' "$out/$target/log" || tail -3 "$out/$target/log"
done
