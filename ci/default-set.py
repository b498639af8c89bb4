#!/usr/bin/env python3
"""How many tests each package has in its default set on a target no runner here can execute.

A test binary for macOS, FreeBSD or Cygwin cannot be run here to `--list` it, but which tests it
holds is decided at macro expansion: `#[cfg]` strips what the target lacks, and `#[test]` (rstest's
cases too) becomes one `#[rustc_test_marker = "name"]` constant whose `ignore:` says whether it
is in the default set. So each test target is expanded for the target (`cargo rustc --profile
test -- -Zunpretty=expanded`; RUSTC_BOOTSTRAP=1 lets the stable toolchain take the flag, and a
target without rustup's std, Cygwin, gets the pinned nightly with -Zbuild-std) and its markers
are counted. A test whose body skips at run time (a missing tool) still counts: it runs. Nothing is linked
or run (`true` is the linker of the binaries cargo builds on the way).

A `harness = false` target (tests/conformance.rs, one test per case file and subject) has no
markers: its tests are made at run time from conformance/cases, and it is listed as such.

The tests a target has and the Linux host (x86_64-unknown-linux-gnu) has not are the ones gated
to that platform: `--only-here` lists them, which is what exercises its own paths.

    python3 ci/default-set.py x86_64-apple-darwin x86_64-unknown-freebsd   # a table
    python3 ci/default-set.py --json --only-here x86_64-apple-darwin

On demand, not in .ci/run: each target builds both packages' dependencies once (a few minutes).
"""
import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "x86_64-unknown-linux-gnu"
# Targets rustup ships no std for here: built from source with the pinned nightly.
BUILD_STD = {"x86_64-pc-cygwin"}
MARKER = re.compile(r'#\[rustc_test_marker\s*=\s*"([^"]+)"\]')
IGNORE = re.compile(r"\bignore: (true|false),")


def test_targets():
    """(package, cargo selector, name, harness) for every test target of the workspace."""
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1", "--locked"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout
    )
    harness_false = harnessless_tests()
    out = []
    for pkg in meta["packages"]:
        for t in pkg["targets"]:
            if not t.get("test"):
                continue
            kind = t["kind"][0]
            if kind == "lib":
                sel = ["--lib"]
            elif kind in ("bin", "test"):
                sel = [f"--{kind}", t["name"]]
            else:
                continue
            harness = (pkg["name"], t["name"]) not in harness_false
            out.append((pkg["name"], sel, f"{kind} {t['name']}" if kind != "lib" else "lib", harness))
    return out


def harnessless_tests():
    """(package, test name) of the `[[test]] harness = false` entries, read from each manifest."""
    import tomllib

    found = set()
    for manifest in [ROOT / "Cargo.toml", *ROOT.glob("*/Cargo.toml")]:
        data = tomllib.loads(manifest.read_text())
        name = data.get("package", {}).get("name")
        for t in data.get("test", []):
            if t.get("harness") is False:
                found.add((name, t["name"]))
    return found


def expand(target, package, selector):
    """The expanded source of one test target for `target`, or raise with cargo's error."""
    env = dict(os.environ)
    cmd = ["cargo"]
    extra = []
    if target in BUILD_STD:
        cmd.append("+" + (ROOT / "ci/nightly-toolchain").read_text().strip())
        extra = ["-Zbuild-std=std,panic_abort"]
    else:
        env["RUSTC_BOOTSTRAP"] = "1"
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target" / "default-set"))
    # The tool's integration tests make cargo link its binary first (CARGO_BIN_EXE_*), and
    # there is no linker for these targets here; nothing built is run or read, so `true`
    # stands in for it.
    if target != HOST:
        env[f"CARGO_TARGET_{target.upper().replace('-', '_')}_LINKER"] = "true"
    cmd += ["rustc", "-q", "--locked", *extra, "-p", package, *selector, "--profile", "test",
            "--target", target, "--", "-Zunpretty=expanded"]
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{run.stderr[-3000:]}")
    return run.stdout


def markers(source):
    """{test name: ignored} from an expanded test crate."""
    tests = {}
    for m in MARKER.finditer(source):
        ig = IGNORE.search(source, m.end())
        if ig is None:
            raise RuntimeError(f"no `ignore:` after the marker of {m.group(1)}")
        tests[m.group(1)] = ig.group(1) == "true"
    return tests


def count(target, targets):
    rows = []
    for package, selector, label, harness in targets:
        if not harness:
            rows.append({"package": package, "target": label, "harness": False})
            continue
        tests = markers(expand(target, package, selector))
        rows.append({
            "package": package, "target": label, "harness": True,
            "tests": sorted(t for t, ig in tests.items() if not ig),
            "ignored": sorted(t for t, ig in tests.items() if ig),
        })
        print(f"default-set: {target} {package} {label}: {len(rows[-1]['tests'])}", file=sys.stderr)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", nargs="+")
    ap.add_argument("--json", action="store_true", help="every test name, not only the counts")
    ap.add_argument("--only-here", action="store_true",
                    help=f"also list the tests a target has and {HOST} has not")
    args = ap.parse_args()
    targets = test_targets()
    result = {t: count(t, targets) for t in args.targets}
    if args.only_here:
        host_rows = result[HOST] if HOST in result else count(HOST, targets)
        host = {(r["package"], r["target"]): set(r["tests"]) for r in host_rows if r["harness"]}
        for t, rows in result.items():
            for r in rows:
                if r["harness"]:
                    r["only_here"] = sorted(set(r["tests"]) - host.get((r["package"], r["target"]), set()))
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return
    for t, rows in result.items():
        print(f"\n{t}\n")
        print("| package | test target | default set | ignored |" + (" only here |" if args.only_here else ""))
        print("|---|---|---|---|" + ("---|" if args.only_here else ""))
        totals = {}
        for r in rows:
            if not r["harness"]:
                print(f"| {r['package']} | {r['target']} | made at run time (harness = false) | |" + (" |" if args.only_here else ""))
                continue
            n, i = len(r["tests"]), len(r["ignored"])
            tot = totals.setdefault(r["package"], [0, 0, 0])
            tot[0] += n
            tot[1] += i
            here = ""
            if args.only_here:
                tot[2] += len(r["only_here"])
                here = f" {len(r['only_here'])} |"
            print(f"| {r['package']} | {r['target']} | {n} | {i} |{here}")
        for p, (n, i, h) in totals.items():
            print(f"| {p} | all | {n} | {i} |" + (f" {h} |" if args.only_here else ""))


if __name__ == "__main__":
    main()
