#!/usr/bin/env python3
"""Headless-Chromium test of the matrix page (index.html): load, filter, group, reorder a
column, open a cell's detail, screenshot.

Speaks WebDriver to Debian's chromedriver over plain HTTP (standard library only), so it needs
nothing beyond the `chromium` and `chromium-driver` packages that ci/setup.sh installs.

Usage: ci/browser-test.py [--expect-disagreement] PAGE.html SCREENSHOT.png
  --expect-disagreement  the page must flag at least one cell (and its detail must say so)
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

CHROME_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)
    print(f"ok: {message}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return json.loads(resp.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise Failed(f"{method} {path}: {e.code} {e.read().decode(errors='replace')[:500]}")

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def start(self, user_data_dir):
        chrome = shutil.which("chromium") or "/usr/bin/chromium"
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chrome, "args": CHROME_ARGS + [f"--user-data-dir={user_data_dir}"]},
        }}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        found = self.s("POST", "/element", {"using": "css selector", "value": css})
        if not isinstance(found, dict) or ELEMENT not in found:
            raise Failed(f"no element {css!r}: {found!r}")
        return found[ELEMENT]

    def click(self, css):
        self.s("POST", f"/element/{self.find(css)}/click", {})

    def type(self, css, text):
        self.s("POST", f"/element/{self.find(css)}/value", {"text": text})


def visible_rows(d):
    return d.js("return [...document.querySelectorAll('#matrix tbody tr[data-row]')].map(r => r.dataset.row);")


def run(d, page, shot, expect_disagreement):
    d.s("POST", "/url", {"url": page.resolve().as_uri()})
    data = d.js("return JSON.parse(document.getElementById('matrix-data').textContent);")
    rows = visible_rows(d)
    check(len(rows) == len(data["rows"]) > 0, f"the page shows all {len(data['rows'])} rows")
    headers = d.js("return document.querySelectorAll('#matrix thead th[data-col]').length;")
    check(headers == len(data["columns"]), f"the page shows all {headers} columns")
    resources = d.js("return performance.getEntriesByType('resource').map(e => e.name);")
    check(resources == [], "the page loads nothing (no resource entries)")

    # Filter by text: only matching rows stay.
    word = "addchdir" if any("addchdir" in r for r in rows) else rows[0].split(".")[-1]
    d.type("#filter", word)
    shown = visible_rows(d)
    check(0 < len(shown) < len(rows), f"filter {word!r} keeps {len(shown)} of {len(rows)} rows")
    count = d.js("return document.getElementById('count').textContent;")
    check(count.startswith(f"{len(shown)} of"), f"the counter says {count!r}")
    d.js("const f = document.getElementById('filter'); f.value = ''; f.dispatchEvent(new Event('input'));")
    check(len(visible_rows(d)) == len(rows), "clearing the filter shows every row again")

    # Filter by group.
    group = data["groups"][-1]["id"]
    d.js("const g = document.getElementById('group'); g.value = arguments[0]; g.dispatchEvent(new Event('change'));", group)
    in_group = [r["id"] for r in data["rows"] if r["group"] == group]
    check(visible_rows(d) == in_group, f"group {group!r} shows exactly its {len(in_group)} rows")
    d.js("const g = document.getElementById('group'); g.value = ''; g.dispatchEvent(new Event('change'));")

    # Only rows with a disagreement.
    flagged = [r["id"] for r in data["rows"] if any(c.get("conflicts") for c in r["cells"].values())]
    if expect_disagreement:
        check(len(flagged) > 0, f"the data has {len(flagged)} rows with a disagreement")
        marks = d.js("return document.querySelectorAll('td.cell.conflict .warn-mark').length;")
        check(marks > 0, f"{marks} cells carry the disagreement mark")
    d.click("#conflicts-only")
    check(visible_rows(d) == flagged, f"'disagreements only' shows the {len(flagged)} flagged rows")
    d.click("#conflicts-only")

    # Reorder columns: move the first column one to the right.
    if len(data["columns"]) > 1:
        first = d.js("return document.querySelector('#matrix thead th[data-col]').dataset.col;")
        d.click("#matrix thead th[data-col] button[title='move right']")
        after = d.js("return [...document.querySelectorAll('#matrix thead th[data-col]')].map(t => t.dataset.col);")
        check(after[1] == first and after[0] != first, "the first column moved one place right")

    # Open a cell's detail: prefer a flagged cell, else a documented one, else any.
    target = None
    for selector in ["td.cell.conflict", "td.cell .e-doc", "td.cell"]:
        if d.js("return document.querySelector(arguments[0]) !== null;", selector):
            target = selector if selector.startswith("td.cell.") or selector == "td.cell" else "td.cell:has(.e-doc)"
            break
    check(target is not None, "the table has cells")
    row, col = d.js("const c = document.querySelector(arguments[0]); c.scrollIntoView({block: 'center', inline: 'center'}); return [c.dataset.row, c.dataset.col];", target)
    d.click(f"{target}[data-row='{row}'][data-col='{col}']")
    detail = d.js("const a = document.getElementById('detail'); return a.hidden ? null : a.innerText;")
    check(detail is not None, "clicking a cell opens the detail panel")
    cell = next(r for r in data["rows"] if r["id"] == row)["cells"][col]
    check(row in detail and cell["evidence"] in detail, f"the detail names row {row} and evidence {cell['evidence']}")
    if "source" in cell:
        check(cell["source"] in detail, "the detail shows the source")
    if cell.get("conflicts"):
        check("disagrees" in detail, "the detail shows the disagreement")
    title = d.js("return document.querySelector(arguments[0]).title;", f"td.cell[data-row='{row}'][data-col='{col}']")
    check(cell["evidence"] in title, "hovering a cell gives its summary (title)")

    d.js("document.getElementById('wrap').scrollTo(0, 0);")
    png = base64.b64decode(d.s("GET", "/screenshot"))
    shot.write_bytes(png)
    check(png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000, f"screenshot written to {shot} ({len(png)} bytes)")


def main():
    args = sys.argv[1:]
    expect_disagreement = "--expect-disagreement" in args
    args = [a for a in args if a != "--expect-disagreement"]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    page, shot = Path(args[0]), Path(args[1])
    if not page.is_file():
        print(f"browser-test: {page} does not exist", file=sys.stderr)
        return 2
    driver_bin = shutil.which("chromedriver")
    if driver_bin is None:
        print("browser-test: chromedriver not found (ci/setup.sh apt-browser installs it)", file=sys.stderr)
        return 1
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="spawnmatrix-chromium-") as profile:
        proc = subprocess.Popen([driver_bin, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        d = Driver(port)
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    if d.call("GET", "/status").get("ready"):
                        break
                except (OSError, Failed):
                    pass
                if time.monotonic() > deadline:
                    raise Failed("chromedriver did not become ready in 20 s")
                time.sleep(0.2)
            d.start(profile)
            try:
                run(d, page, shot, expect_disagreement)
            finally:
                d.call("DELETE", f"/session/{d.session}")
        except Failed as e:
            print(f"browser-test: FAILED: {e}", file=sys.stderr)
            return 1
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    print("browser-test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
