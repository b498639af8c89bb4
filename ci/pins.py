#!/usr/bin/env python3
"""Static checks of what breaks a first run on GitHub, where nothing can be tried beforehand.

    ci/pins.py [check]          every check below; each problem names its file and line
    ci/pins.py msrv-packages    `package rust-version` per workspace member: the toolchains
                                ci/setup.sh installs and ci/checks/55-msrv.sh builds with
    ci/pins.py record OWNER/REPO@SHA TAG ACTION_YML
                                records the inputs of a pinned action in ci/action-inputs.json
    ci/pins.py self-test        shows that each check fails on the input it exists for

Checks:
- actions: every `uses: owner/repo@ref` in .github/workflows is pinned to a 40-hex SHA whose
  inputs are recorded in ci/action-inputs.json (taken from that SHA's action.yml), its version
  comment names the recorded tag, every `with:` key is an input of the action and none is one
  the action marks deprecated, and every required input without a default is given.
- msrv: each workspace package's `rust-version` is at least the `rust-version` of every locked
  package a downstream build compiles (its normal and build dependencies, from
  `cargo metadata --locked`), its dev-dependencies build with the workspace's highest
  rust-version, and it is at most the Rust that containers/alpine.Containerfile records for
  its Alpine release (ALPINE_RUST).
- nightly: the Cygwin nightly is named in ci/nightly-toolchain only; ci/setup.sh, the
  cross-check and the workflow read that file, and nothing else in CI names a nightly.
- ignore: .dockerignore is the same file as .containerignore, which keeps target/ out.
- line endings: .gitattributes keeps LF on the Cygwin job's Windows checkout.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = "ci/action-inputs.json"
NIGHTLY_FILE = "ci/nightly-toolchain"
ALPINE_FILE = "containers/alpine.Containerfile"
SHA = re.compile(r"^[0-9a-f]{40}$")


class Problems(list):
    def add(self, path: Path | str, line: int | None, msg: str) -> None:
        where = f"{path}:{line}" if line else f"{path}"
        self.append(f"{where}: {msg}")


def rel(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


# --- actions ---------------------------------------------------------------------------------


def _yaml():
    import yaml  # PyYAML, from ci/requirements.txt (the venv of ci/env.sh)

    return yaml


def action_steps(path: Path):
    """Yields (line, uses, comment, {with-key: line}) for every step that uses an action."""
    yaml = _yaml()
    text = path.read_text()
    lines = text.splitlines()
    root = yaml.compose(text)
    if root is None:
        return
    jobs = _get(root, "jobs")
    if jobs is None:
        return
    for _, job in jobs.value:
        steps = _get(job, "steps")
        if steps is None:
            continue
        for step in steps.value:
            uses = _get(step, "uses")
            if uses is None:
                continue
            line = uses.start_mark.line
            comment = lines[line].partition("#")[2].strip() if "#" in lines[line] else ""
            keys = {}
            with_node = _get(step, "with")
            if with_node is not None:
                keys = {k.value: k.start_mark.line + 1 for k, _ in with_node.value}
            yield line + 1, uses.value, comment, keys


def _get(node, key):
    if not hasattr(node, "value") or not isinstance(node.value, list):
        return None
    for item in node.value:
        if isinstance(item, tuple) and getattr(item[0], "value", None) == key:
            return item[1]
    return None


def check_actions(root: Path, problems: Problems) -> int:
    fixture_path = root / FIXTURE
    fixture = json.loads(fixture_path.read_text())
    used = set()
    count = 0
    for wf in sorted((root / ".github/workflows").glob("*.y*ml")):
        name = rel(root, wf)
        for line, uses, comment, keys in action_steps(wf):
            if uses.startswith(("./", "docker://")):
                continue
            count += 1
            action, _, ref = uses.partition("@")
            if not SHA.match(ref):
                problems.add(name, line, f"{uses}: not pinned to a commit SHA")
                continue
            entry = fixture.get(uses)
            if entry is None:
                problems.add(name, line, f"{uses}: no inputs recorded in {FIXTURE} for this SHA "
                             f"(ci/pins.py record {uses} TAG action.yml)")
                continue
            used.add(uses)
            tag = entry["tag"]
            if comment.split()[:1] != [tag]:
                problems.add(name, line, f"{uses}: the comment says {comment or 'nothing'!r}, "
                             f"but {FIXTURE} records this SHA as {tag}")
            inputs = entry["inputs"]
            for key, key_line in keys.items():
                if key not in inputs:
                    problems.add(name, key_line, f"{action}@{tag} has no input {key!r} "
                                 f"(inputs: {', '.join(sorted(inputs))})")
                elif inputs[key].get("deprecated"):
                    problems.add(name, key_line, f"{action}@{tag}: input {key!r} is deprecated: "
                                 f"{inputs[key]['description']}")
            for key, spec in inputs.items():
                if spec.get("required") and not spec.get("has_default") and key not in keys:
                    problems.add(name, line, f"{action}@{tag}: required input {key!r} is not given")
    for stale in sorted(set(fixture) - used):
        problems.add(FIXTURE, None, f"{stale}: recorded but no workflow uses it")
    return count


def record(root: Path, uses: str, tag: str, action_yml: Path) -> None:
    """Adds (or replaces) one action@SHA's inputs in the fixture, from its action.yml."""
    yaml = _yaml()
    action, _, sha = uses.partition("@")
    if not SHA.match(sha):
        sys.exit(f"pins.py: {uses}: give the full commit SHA")
    meta = yaml.safe_load(action_yml.read_text())
    inputs = {}
    for key, spec in (meta.get("inputs") or {}).items():
        spec = spec or {}
        desc = " ".join(str(spec.get("description", "")).split())
        inputs[key] = {
            "required": bool(spec.get("required", False)),
            "has_default": "default" in spec,
            "deprecated": bool(spec.get("deprecationMessage"))
            or desc.lower().startswith("deprecated"),
            "description": desc,
        }
    path = root / FIXTURE
    fixture = json.loads(path.read_text()) if path.exists() else {}
    owner_repo = "/".join(action.split("/")[:2])
    sub = "/".join(action.split("/")[2:])
    fixture[uses] = {
        "tag": tag,
        "source": f"https://github.com/{owner_repo}/blob/{sha}/{sub + '/' if sub else ''}action.yml",
        "inputs": inputs,
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(fixture, indent=2, sort_keys=True) + "\n")
    tmp.replace(path)


# --- msrv ------------------------------------------------------------------------------------


def version(v: str) -> tuple[int, ...]:
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def show(v: tuple[int, ...]) -> str:
    return ".".join(map(str, v[:2] if v[2] == 0 else v))


def cargo_metadata(root: Path) -> dict:
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        cwd=root, check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def workspace_msrvs(meta: dict) -> dict[str, tuple[tuple[int, ...] | None, str]]:
    """name -> (rust-version or None, manifest path) for each workspace member."""
    members = set(meta["workspace_members"])
    return {
        p["name"]: (version(p["rust_version"]) if p.get("rust_version") else None, p["manifest_path"])
        for p in meta["packages"] if p["id"] in members
    }


def needed_by(meta: dict, member_id: str, dev: bool) -> tuple[tuple[int, ...], str]:
    """The highest rust-version in a member's locked closure (with `dev`, its own
    dev-dependencies too, never theirs), and the package that sets it."""
    by_id = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    seen, todo = set(), [(member_id, True)]
    best: tuple[tuple[int, ...], str] = ((0, 0, 0), "nothing")
    while todo:
        pid, root = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        p = by_id[pid]
        if p.get("rust_version") and pid != member_id:
            v = version(p["rust_version"])
            if v > best[0]:
                best = (v, f"{p['name']} {p['version']}")
        for dep in nodes[pid]["deps"]:
            kinds = {k["kind"] for k in dep["dep_kinds"]}
            if kinds - {"dev"} or (root and dev):
                todo.append((dep["pkg"], False))
    return best


def alpine_rust(root: Path, problems: Problems) -> tuple[tuple[int, ...], int] | None:
    path = root / ALPINE_FILE
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = re.match(r"\s*ARG\s+ALPINE_RUST=(\d+\.\d+(?:\.\d+)?)\s*$", line)
        if m:
            return version(m.group(1)), n
    problems.add(ALPINE_FILE, None, "no `ARG ALPINE_RUST=<x.y>` (the Rust its Alpine release packages)")
    return None


def check_msrv(root: Path, problems: Problems, meta: dict | None = None) -> list[str]:
    """A package's rust-version covers what a downstream build compiles (its normal and build
    dependencies). Its tests and benches (dev-dependencies too) must build with the highest
    rust-version of the workspace, the toolchain ci/checks/55-msrv.sh tests every target with."""
    meta = meta or cargo_metadata(root)
    alpine = alpine_rust(root, problems)
    done = []
    members = {p["name"]: p["id"] for p in meta["packages"] if p["id"] in set(meta["workspace_members"])}
    msrvs = workspace_msrvs(meta)
    declared_all = [v for v, _ in msrvs.values() if v]
    top = max(declared_all) if declared_all else None
    for name, (declared, manifest) in sorted(msrvs.items()):
        manifest = rel(root, Path(manifest))
        if declared is None:
            problems.add(manifest, _line_of(manifest, root, "[package]"), f"{name}: no rust-version")
            continue
        need, why = needed_by(meta, members[name], dev=False)
        line = _line_of(manifest, root, "rust-version")
        if need > declared:
            problems.add(manifest, line, f"{name}: rust-version {show(declared)} is not true for "
                         f"Cargo.lock: {why} needs Rust {show(need)}")
        dev_need, dev_why = needed_by(meta, members[name], dev=True)
        if dev_need > top and dev_need > need:
            problems.add(manifest, line, f"{name}: its tests need Rust {show(dev_need)} ({dev_why}, "
                         f"a dev-dependency's closure), above every rust-version in the workspace")
        if alpine and alpine[0][:2] < declared[:2]:
            problems.add(ALPINE_FILE, alpine[1], f"Alpine's Rust {show(alpine[0])} is older than "
                         f"{name}'s rust-version {show(declared)} ({manifest}): the Alpine job "
                         "cannot build it")
        done.append(f"{name} {show(declared)} (lock needs {show(need)}: {why}; "
                    f"with dev-dependencies {show(dev_need)})")
    return done


def _line_of(manifest: str, root: Path, needle: str) -> int | None:
    path = root / manifest
    if not path.exists():
        return None
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip().startswith(needle):
            return n
    return None


def msrv_packages(root: Path) -> list[tuple[str, str]]:
    """(package, rust-version) for every workspace member, as cargo reads them (inherited
    `rust-version.workspace = true` included)."""
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=root, check=True, capture_output=True, text=True,
    ).stdout
    meta = json.loads(out)
    rows = []
    for p in meta["packages"]:
        if not p.get("rust_version"):
            sys.exit(f"pins.py: {rel(root, Path(p['manifest_path']))}: {p['name']} has no rust-version")
        rows.append((p["name"], p["rust_version"]))
    return sorted(rows)


# --- nightly ---------------------------------------------------------------------------------

NIGHTLY_NAME = re.compile(r"\bnightly-\d{4}-\d{2}-\d{2}\b|\+nightly\b|toolchain install nightly\b")
NIGHTLY_READERS = ("ci/setup.sh", "ci/checks/50-cross-check.sh", ".github/workflows/matrix.yml")


def ci_files(root: Path):
    for pattern in ("ci/**/*", ".ci/*", ".github/**/*"):
        for path in sorted(root.glob(pattern)):
            if path.is_file() and path.suffix not in (".json", ".png"):
                yield path


def check_nightly(root: Path, problems: Problems) -> str | None:
    pin_path = root / NIGHTLY_FILE
    if not pin_path.exists():
        problems.add(NIGHTLY_FILE, None, "missing: the one place the Cygwin nightly is pinned")
        return None
    pin = pin_path.read_text().strip()
    if not re.fullmatch(r"nightly-\d{4}-\d{2}-\d{2}", pin):
        problems.add(NIGHTLY_FILE, 1, f"{pin!r} is not a dated nightly (nightly-YYYY-MM-DD)")
    for path in ci_files(root):
        name = rel(root, path)
        if name in (NIGHTLY_FILE, "ci/pins.py"):
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = NIGHTLY_NAME.search(line)
            if m:
                problems.add(name, n, f"names a nightly ({m.group(0)!r}); read {NIGHTLY_FILE} instead")
    for name in NIGHTLY_READERS:
        path = root / name
        if path.exists() and NIGHTLY_FILE not in path.read_text():
            problems.add(name, None, f"builds with nightly but does not read {NIGHTLY_FILE}")
    return pin


# --- ignore files ----------------------------------------------------------------------------


def check_line_endings(root: Path, problems: Problems) -> None:
    """The Cygwin job checks out on Windows: without eol=lf its scripts get CRLF."""
    path = root / ".gitattributes"
    lines = path.read_text().splitlines() if path.exists() else []
    if not any(l.split() == ["*", "text=auto", "eol=lf"] for l in lines):
        problems.add(".gitattributes", None, "needs `* text=auto eol=lf`: the Cygwin job checks out "
                     "on Windows, where CRLF breaks bash scripts and ci/nightly-toolchain")


def check_ignore(root: Path, problems: Problems) -> None:
    ci, docker = root / ".containerignore", root / ".dockerignore"
    if not ci.exists():
        problems.add(".containerignore", None, "missing: the Alpine build would copy target/")
        return
    if not any(l.strip().rstrip("/") in ("target", "/target") for l in ci.read_text().splitlines()):
        problems.add(".containerignore", None, "does not leave target/ out of the build context")
    if not docker.exists() or docker.resolve() != ci.resolve():
        problems.add(".dockerignore", None, "must be a symlink to .containerignore (Docker reads it)")


# --- main ------------------------------------------------------------------------------------


def check(root: Path) -> int:
    problems = Problems()
    n = check_actions(root, problems)
    print(f"pins: {n} pinned action steps checked against {FIXTURE}")
    for line in check_msrv(root, problems):
        print(f"pins: rust-version {line}")
    pin = check_nightly(root, problems)
    print(f"pins: Cygwin nightly {pin} (from {NIGHTLY_FILE} only)")
    check_ignore(root, problems)
    check_line_endings(root, problems)
    for p in problems:
        print(f"pins: {p}", file=sys.stderr)
    print(f"pins: {len(problems)} problem(s)")
    return 1 if problems else 0


class SelfTest(unittest.TestCase):
    """Each check against a copy of the repository's CI files with one thing broken."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        for name in [FIXTURE, NIGHTLY_FILE, ALPINE_FILE, ".containerignore", ".gitattributes",
                     *NIGHTLY_READERS]:
            dest = self.root / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes((ROOT / name).read_bytes())
        (self.root / ".dockerignore").symlink_to(".containerignore")

    def tearDown(self):
        self.tmp.cleanup()

    def edit(self, name, old, new):
        path = self.root / name
        text = path.read_text()
        self.assertIn(old, text)
        path.write_text(text.replace(old, new, 1))

    def problems(self, fn, *args):
        problems = Problems()
        fn(self.root, problems, *args)
        return problems

    def test_clean_copy_passes(self):
        self.assertEqual(self.problems(check_actions), [])
        self.assertEqual(self.problems(check_nightly), [])
        self.assertEqual(self.problems(check_ignore), [])
        self.assertEqual(self.problems(check_line_endings), [])

    def test_crlf_checkout(self):
        (self.root / ".gitattributes").write_text("*.sh text\n")
        self.assertTrue(any("eol=lf" in p for p in self.problems(check_line_endings)))

    def test_unknown_input(self):
        self.edit(".github/workflows/matrix.yml", "persist-credentials: false",
                  "persist-credentials: false\n          fetch-dept: 1")
        self.assertTrue(any("no input 'fetch-dept'" in p for p in self.problems(check_actions)))

    def test_deprecated_input(self):
        self.edit(".github/workflows/matrix.yml", "copyback: true", "copyback: true\n          usesh: true")
        self.assertTrue(any("'usesh' is deprecated" in p for p in self.problems(check_actions)))

    def test_unpinned_and_unrecorded(self):
        wf = ".github/workflows/matrix.yml"
        text = (self.root / wf).read_text()
        sha = re.search(r"actions/checkout@([0-9a-f]{40})", text).group(1)
        self.edit(wf, f"actions/checkout@{sha}", "actions/checkout@v7")
        self.edit(wf, f"actions/checkout@{sha}", "actions/checkout@" + "0" * 40)
        ps = self.problems(check_actions)
        self.assertTrue(any("not pinned to a commit SHA" in p for p in ps))
        self.assertTrue(any("no inputs recorded" in p for p in ps))

    def test_tag_comment(self):
        self.edit(".github/workflows/matrix.yml", "# v7.0.1", "# v6.0.0")
        self.assertTrue(any("records this SHA as v7.0.1" in p for p in self.problems(check_actions)))

    def test_required_input(self):
        fixture = json.loads((self.root / FIXTURE).read_text())
        key = next(k for k in fixture if k.startswith("actions/upload-pages-artifact@"))
        fixture[key]["inputs"]["path"]["has_default"] = False
        (self.root / FIXTURE).write_text(json.dumps(fixture))
        wf = ".github/workflows/matrix.yml"
        text = (self.root / wf).read_text()
        start = text.index("actions/upload-pages-artifact@")
        (self.root / wf).write_text(text[:start] + text[start:].replace("path: site", "name: x", 1))
        self.assertTrue(any("required input 'path'" in p for p in self.problems(check_actions)))

    def test_nightly_named_twice(self):
        self.edit("ci/checks/50-cross-check.sh", "cargo ", "cargo +nightly ")
        self.assertTrue(any("names a nightly" in p for p in self.problems(check_nightly)))

    def test_nightly_reader(self):
        path = self.root / "ci/setup.sh"
        path.write_text(path.read_text().replace(NIGHTLY_FILE, "ci/other"))
        self.assertTrue(any("does not read" in p for p in self.problems(check_nightly)))

    def test_ignore(self):
        (self.root / ".dockerignore").unlink()
        (self.root / ".dockerignore").write_text("target/\n")
        self.assertTrue(any("symlink" in p for p in self.problems(check_ignore)))

    def test_msrv_against_lock_and_alpine(self):
        def pkg(pid, rv):
            return {"id": pid, "name": pid, "version": "1.0.0", "rust_version": rv,
                    "manifest_path": str(self.root / "Cargo.toml") if pid == "a" else "/x"}

        def dep(pid, kind=None):
            return {"pkg": pid, "dep_kinds": [{"kind": kind}]}

        meta = {
            "workspace_members": ["a"],
            "packages": [pkg("a", "1.80"), pkg("proptest", "1.88"), pkg("rstest", "1.85"),
                         pkg("theirdev", "1.99")],
            "resolve": {"nodes": [
                {"id": "a", "deps": [dep("proptest"), dep("rstest", "dev")]},
                {"id": "proptest", "deps": [dep("theirdev", "dev")]},
                {"id": "rstest", "deps": []},
                {"id": "theirdev", "deps": []},
            ]},
        }
        (self.root / "Cargo.toml").write_text('[package]\nname = "a"\nrust-version = "1.80"\n')

        def run():
            ps = Problems()
            check_msrv(self.root, ps, meta)
            return ps

        ps = run()
        self.assertEqual(len(ps), 1, ps)
        self.assertIn("Cargo.toml:3: a: rust-version 1.80 is not true for Cargo.lock: "
                      "proptest 1.0.0 needs Rust 1.88", ps[0])
        meta["packages"][0]["rust_version"] = "1.88"
        self.assertEqual(run(), [])  # a dependency's dev-dependencies never count
        meta["packages"][2]["rust_version"] = "1.90"
        ps = run()
        self.assertEqual(len(ps), 1, ps)
        self.assertIn("its tests need Rust 1.90 (rstest", ps[0])
        meta["packages"][2]["rust_version"] = "1.85"
        meta["packages"][0]["rust_version"] = "1.92"
        ps = run()
        self.assertEqual(len(ps), 1, ps)
        self.assertIn("Alpine's Rust", ps[0])


def main(argv: list[str]) -> int:
    cmd = argv[1] if len(argv) > 1 else "check"
    if cmd == "check":
        return check(ROOT)
    if cmd == "msrv-packages":
        for name, v in msrv_packages(ROOT):
            print(name, v)
        return 0
    if cmd == "record" and len(argv) == 5:
        record(ROOT, argv[2], argv[3], Path(argv[4]))
        return 0
    if cmd == "self-test":
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(SelfTest)
        return 0 if unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful() else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
