#!/usr/bin/env bash
# What would break the workflow's first run on GitHub, checked statically (ci/pins.py): pinned
# actions' inputs against their recorded action.yml, rust-version against Cargo.lock and
# Alpine's Rust, the one Cygwin nightly pin, .containerignore. The self-test first shows that
# each of those checks fails on the mistake it exists for.
python3 ci/pins.py self-test
python3 ci/pins.py
