#!/usr/bin/env bash
# The library's API docs build without a single rustdoc warning (broken intra-doc links,
# bare URLs, invalid code blocks, ...); `#![deny(missing_docs)]` covers what is undocumented.
RUSTDOCFLAGS="-D warnings" cargo doc --locked -p spawnmatrix-spawn --no-deps
