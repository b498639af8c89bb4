#!/usr/bin/env bash
# actionlint and zizmor on the GitHub Actions workflows.
actionlint ci/workflows/*.yml
zizmor --offline ci/workflows/*.yml
