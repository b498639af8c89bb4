#!/usr/bin/env bash
# No test names a path that macOS, FreeBSD or Cygwin lacks (`/bin/true`, `/proc`, `/dev/fd`,
# ...) outside a Linux gate: the workflow runs `cargo test` there. The self-test first shows
# the scanner flags such paths and passes gated ones.
python3 ci/test-paths.py --self-test
python3 ci/test-paths.py tests spawn/tests
