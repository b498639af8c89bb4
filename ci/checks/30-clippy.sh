#!/usr/bin/env bash
cargo clippy --all-targets -- -D warnings
# The optional event-loop adapters, which the line above does not build.
cargo clippy -p spawnmatrix-spawn --features tokio,async-io --all-targets -- -D warnings
