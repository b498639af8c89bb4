#!/usr/bin/env bash
# The workflow's merge job (ci/merge.sh) on inputs its first runs can meet: no collected
# reports at all (every platform job failed), a fresh report that agrees with the stored one,
# and one that regresses it, which the `spawnmatrix diff` gate must refuse.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stored=targets/reports/container-debian-bookworm.json

echo "-- no collected/ folder"
bash ci/merge.sh "$tmp/none" "$tmp/site-none" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
test -s "$tmp/site-none/index.html" && test -s "$tmp/site-none/matrix.json"

fresh() { # dest [capability to make absent]
  python3 - "$stored" "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["generated_at"] = "2099-01-01T00:00:00Z"
r["platform"]["provenance"]["host"] = "ci/checks/85-merge.sh"
if len(sys.argv) > 3:
    r["capabilities"][sys.argv[3]]["available"] = False
json.dump(r, open(sys.argv[2], "w"))
PY
}
echo "-- a fresh report that agrees with the stored one"
mkdir -p "$tmp/same/reports"
fresh "$tmp/same/reports/container-debian-bookworm.json"
bash ci/merge.sh "$tmp/same" "$tmp/site-same" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }

echo "-- a fresh report that regresses it"
mkdir -p "$tmp/worse/reports"
cap=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["capabilities"]; print(next(k for k, v in sorted(c.items()) if v["available"]))' "$stored")
fresh "$tmp/worse/reports/container-debian-bookworm.json" "$cap"
status=0
bash ci/merge.sh "$tmp/worse" "$tmp/site-worse" >"$tmp/log" 2>&1 || status=$?
if [ "$status" != 1 ]; then
  cat "$tmp/log"
  echo "85-merge: ci/merge.sh exited $status for a report where $cap became absent; the gate must exit 1"
  exit 1
fi
echo "   refused ($cap available -> absent), as it must be"
