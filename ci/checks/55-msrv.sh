#!/usr/bin/env bash
# rust-version is a promise to downstream users: each workspace package's library and binaries
# build with the toolchain it declares and the committed Cargo.lock; every target (tests and
# benches too) builds with the workspace's highest rust-version. ci/setup.sh installs each
# toolchain; ci/checks/10-pins.sh checks the lock's crates against the same rules.
top=""
while read -r package msrv; do
  echo "-- cargo +$msrv check -p $package --lib --bins"
  cargo "+$msrv" check --locked -p "$package" --lib --bins
  top=$msrv
done < <(python3 ci/pins.py msrv-packages | sort -t' ' -k2,2V)
echo "-- cargo +$top check --workspace --all-targets"
cargo "+$top" check --locked --workspace --all-targets
