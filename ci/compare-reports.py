#!/usr/bin/env python3
"""Checks that freshly generated reports match the stored ones.

    ci/compare-reports.py FRESH_DIR STORED_DIR [--scope GLOB]...

Every *.json in FRESH_DIR must have a namesake in STORED_DIR with the same platform and the
same capabilities (generated_at and suite_version may differ). Every stored file that matches a
--scope glob must have been made fresh too: a stored report the fresh run did not make (say,
for a sysroot linkcheck now refuses) is no longer evidence. A difference means the stored
reports are stale: regenerate them (e.g. `spawnmatrix linkcheck`) and commit.
"""
import argparse
import json
import pathlib
import sys


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("fresh_dir", type=pathlib.Path)
    parser.add_argument("stored_dir", type=pathlib.Path)
    parser.add_argument("--scope", action="append", default=[], metavar="GLOB")
    args = parser.parse_args()
    fresh_dir, stored_dir = args.fresh_dir, args.stored_dir
    fresh_files = sorted(fresh_dir.glob("*.json"))
    if not fresh_files:
        print(f"compare-reports: no reports in {fresh_dir}", file=sys.stderr)
        return 1
    problems = []
    fresh_names = {p.name for p in fresh_files}
    for glob in args.scope:
        for stored_path in sorted(stored_dir.glob(glob)):
            if stored_path.name not in fresh_names:
                problems.append(f"{stored_path}: no fresh run made it (delete it, or regenerate)")
    for fresh_path in fresh_files:
        stored_path = stored_dir / fresh_path.name
        if not stored_path.exists():
            problems.append(f"{stored_path}: missing (a fresh run made {fresh_path.name})")
            continue
        fresh, stored = (json.loads(p.read_text()) for p in (fresh_path, stored_path))
        for key in ("platform", "capabilities"):
            if fresh[key] == stored[key]:
                continue
            if key == "platform":
                problems.append(f"{stored_path}: platform differs: {stored[key]} != {fresh[key]}")
                continue
            for name in sorted(set(fresh[key]) | set(stored[key])):
                a, b = stored[key].get(name), fresh[key].get(name)
                if a != b:
                    problems.append(f"{stored_path}: {name}: stored {a} != fresh {b}")
    for p in problems:
        print(f"compare-reports: {p}", file=sys.stderr)
    print(f"compare-reports: {len(fresh_files)} reports, {len(problems)} differences", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
