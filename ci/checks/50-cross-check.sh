#!/usr/bin/env bash
# Type-checks for the platforms that cannot run here (they run in the GitHub workflow).
for t in x86_64-unknown-freebsd x86_64-apple-darwin aarch64-apple-darwin; do
  echo "-- $t"
  cargo check --locked --target "$t"
done

echo "-- Cygwin (tier 3: nightly, -Zbuild-std)"
# Type-check only (nothing links or runs for Cygwin here). Tests and benches are included
# because nothing else type-checks them for Cygwin (the Windows CI job builds only the bin).
cargo +nightly check --locked -Zbuild-std=std,panic_abort --target x86_64-pc-cygwin --all-targets
