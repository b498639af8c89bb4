#!/usr/bin/env bash
# The clone as .ci/run found it: `ci/clean-tree.sh save FILE` records `git status` at the
# start, `ci/clean-tree.sh check FILE` fails at the end when a step changed, added or removed a
# file git tracks or would track (ignored build output such as target/, out/ and results/
# excepted), and prints the difference.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 2 ] || { echo "usage: ci/clean-tree.sh save|check FILE" >&2; exit 2; }
state() { git status --porcelain=v1 --untracked-files=all; git diff HEAD --binary | sha1sum; }
case $1 in
  save) state >"$2" ;;
  check)
    if ! diff -u "$2" <(state); then
      echo "clean-tree: the run changed the clone (above: - at the start, + now); commit what should be committed, write the rest outside the clone or make git ignore it" >&2
      exit 1
    fi
    echo "clean-tree: the clone is as the run found it" ;;
  *) echo "usage: ci/clean-tree.sh save|check FILE" >&2; exit 2 ;;
esac
