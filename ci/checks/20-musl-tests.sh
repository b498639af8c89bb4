#!/usr/bin/env bash
# The whole test suite again on the first-class musl target (Rust's bundled, static musl).
cargo test --target x86_64-unknown-linux-musl
