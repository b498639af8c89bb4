#!/usr/bin/env bash
# rust-version is a promise to downstream users: every target builds with that toolchain and
# the committed Cargo.lock (ci/setup.sh installs it; ci/checks/10-pins.sh checks the lock).
msrv=$(python3 ci/pins.py msrv-toolchain)
echo "-- cargo +$msrv check --workspace --all-targets"
cargo "+$msrv" check --locked --workspace --all-targets
