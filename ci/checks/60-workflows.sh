#!/usr/bin/env bash
# actionlint (which runs shellcheck on every run: block), zizmor and check-jsonschema's
# GitHub-workflow schema on the workflows; ci/job-commands.py (each job runs one script with
# its column only, as the local checks do; its self-test first shows it refuses broken
# workflows); shellcheck on the scripts CI and the workflow call.
actionlint .github/workflows/*.yml
zizmor --offline .github/workflows/*.yml
check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
python3 ci/job-commands.py --self-test
python3 ci/job-commands.py .github/workflows/matrix.yml
shellcheck -x -S warning .ci/run ci/*.sh ci/checks/*.sh
