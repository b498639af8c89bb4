#!/usr/bin/env bash
cargo clippy --all-targets -- -D warnings
