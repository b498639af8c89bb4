#!/usr/bin/env bash
# The API docs of the library and of the tool build without a single rustdoc warning (broken
# intra-doc links, bare URLs, invalid code blocks, ...); `#![deny(missing_docs)]` covers what
# the library leaves undocumented.
RUSTDOCFLAGS="-D warnings" cargo doc --locked -p spawnmatrix-spawn -p spawnmatrix --no-deps
