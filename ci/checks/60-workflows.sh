#!/usr/bin/env bash
# actionlint and zizmor on the GitHub Actions workflows.
actionlint .github/workflows/*.yml
zizmor --offline .github/workflows/*.yml
