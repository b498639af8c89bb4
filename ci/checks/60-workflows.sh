#!/usr/bin/env bash
# actionlint (which runs shellcheck on every run: block) and zizmor on the GitHub Actions
# workflows, and shellcheck on the scripts CI and the workflow call.
actionlint .github/workflows/*.yml
zizmor --offline .github/workflows/*.yml
shellcheck -x -S warning .ci/run ci/*.sh ci/checks/*.sh
