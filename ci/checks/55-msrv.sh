#!/usr/bin/env bash
# rust-version is a promise to downstream users: each workspace package, every target of it,
# builds with the toolchain it declares and the committed Cargo.lock (ci/setup.sh installs each
# one; ci/checks/10-pins.sh checks the lock's crates against it).
python3 ci/pins.py msrv-packages | while read -r package msrv; do
  echo "-- cargo +$msrv check -p $package --all-targets"
  cargo "+$msrv" check --locked -p "$package" --all-targets
done
