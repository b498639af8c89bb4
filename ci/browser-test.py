#!/usr/bin/env python3
"""Headless-Chromium test of the matrix page (index.html) at desktop (1280x800) and phone
(390x844) width: the default view is the summary; the addchdir_np row is findable and shows
each family's answer; every state (ignored, deprecated, known bug,
needs) of every summary cell with its note and source; filtering; drill-down from a summary cell to its releases, to the full
table and to one release's evidence; back/forward; a shared URL restores a view; the full
table's group, disagreement and column-order controls; the baselines view (cells as the
embedded baseline JSON says, the family filter, a cell's reason); the kernel & sandboxes view
(each cell as the embedded section JSON says, a cell's answer); no horizontal page overflow; a
sticky header. Expected values are read from the JSON embedded in the page (written by spawnmatrix),
never typed in here.

Speaks WebDriver to Debian's chromedriver over plain HTTP (standard library only), so it needs
nothing beyond the `chromium` and `chromium-driver` packages that ci/setup.sh installs.

Usage: ci/browser-test.py [--expect-disagreement] PAGE.html SHOT_PREFIX
  writes SHOT_PREFIX-{desktop,phone}.png (summary), SHOT_PREFIX-{desktop,phone}-full.png and,
  when the page has a baseline view, SHOT_PREFIX-{desktop,phone}-baselines.png
  --expect-disagreement  the page must flag at least one cell (and its evidence must say so)
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""

import base64
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
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
    "--window-size=1280,800",
]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
# name, width, height, mobile
WIDTHS = [("desktop", 1280, 800, False), ("phone", 390, 844, True)]
FEATURE = "addchdir_np"
EV_LETTER = {"run": "R", "link": "L", "doc": "D"}


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
        self.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center', inline: 'center'});", css)
        self.s("POST", f"/element/{self.find(css)}/click", {})

    def type(self, css, text):
        self.s("POST", f"/element/{self.find(css)}/value", {"text": text})

    def emulate(self, width, height, mobile):
        """The viewport of a phone (or a desktop window) through the DevTools protocol."""
        self.s("POST", "/goog/cdp/execute", {"cmd": "Emulation.setDeviceMetricsOverride", "params": {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}})

    def open(self, url):
        """A fresh load (a URL that differs only by its fragment would not reload)."""
        self.s("POST", "/url", {"url": "about:blank"})
        self.s("POST", "/url", {"url": url})

    def screenshot(self, path):
        png = base64.b64decode(self.s("GET", "/screenshot"))
        path.write_bytes(png)
        check(png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000, f"screenshot written to {path} ({len(png)} bytes)")

    def wait(self, script, what, *args, timeout=5):
        """Polls `script` until it returns something true (after back/forward, which is async)."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(script, *args)
            if value or time.monotonic() > deadline:
                check(value, what)
                return value
            time.sleep(0.05)


def visible_rows(d):
    return d.js("return [...document.querySelectorAll('#matrix tbody tr[data-row]')].map(r => r.dataset.row);")


def page_state(d):
    return d.js("""return {view: document.body.dataset.view, hash: location.hash,
        q: document.getElementById('filter').value, family: document.getElementById('family').value,
        detail: document.getElementById('detail').hidden ? null : document.getElementById('detail').innerText,
        selected: [...document.querySelectorAll('td.cell.selected')].map(t => [t.dataset.row, t.dataset.col])};""")


def no_overflow(d, width, what):
    sw = d.js("return document.documentElement.scrollWidth;")
    check(sw <= width, f"{what}: no horizontal page scroll (scrollWidth {sw} <= {width})")


def scroll_to_bottom(d):
    """Scrolls the page and the table to their ends; whether anything scrolled."""
    return d.js("""window.scrollTo(0, 1e6); const w = document.getElementById('wrap'); w.scrollTop = 1e6;
        return window.scrollY > 0 || w.scrollTop > 0;""")


def shown_cell(value, evidence):
    """A release cell's text as the page must show it: the value, then the evidence letters."""
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, (int, float)):
        text = f"{value:.2f}"
    else:
        text = str(value)
    return text, "".join(EV_LETTER[e] for e in evidence)


def summary_matches(row, q):
    texts = [row["id"], row["label"], row.get("title") or ""] + [a["text"] for a in row["answers"]]
    return any(q in t.lower() for t in texts)


def embedded(d):
    return d.js("""const j = id => JSON.parse(document.getElementById(id).textContent);
        return [j('matrix-data'), j('summary-data'), j('release-data')];""")


def run_width(d, uri, name, width, height, mobile, prefix, expect_disagreement):
    print(f"-- {name} ({width}x{height})")
    d.emulate(width, height, mobile)
    d.open(uri)
    data, summary, cells = embedded(d)
    check(d.js("return window.innerWidth;") == width, f"the viewport is {width} px wide")
    rows = [r for s in summary["sections"] for r in s["rows"]]
    families = summary["families"]
    releases = [(f["id"], r) for f in families for r in f["releases"]]

    # The default view is the summary, every row of it, and the URL names nothing else.
    st = page_state(d)
    check(st["view"] == "summary" and st["hash"] == "", "with no fragment the page opens on the summary")
    check(visible_rows(d) == [r["id"] for r in rows] and rows, f"the summary shows its {len(rows)} rows in order")
    check(d.js("return performance.getEntriesByType('resource').map(e => e.name);") == [],
          "the page loads nothing (no resource entries)")
    no_overflow(d, width, "summary")
    if mobile:
        inner = d.js("const w = document.getElementById('wrap'); return [w.scrollWidth, w.clientWidth];")
        check(inner[0] <= inner[1], f"summary: nothing to scroll sideways inside the table either ({inner[0]} <= {inner[1]})")
    check(scroll_to_bottom(d) and d.js("return document.querySelector('header').getBoundingClientRect().top;") == 0,
          "the header stays on screen while the summary scrolls (sticky)")
    if not mobile:
        top = d.js("return document.querySelector('#matrix thead th').getBoundingClientRect().top;")
        check(abs(top - d.js("return document.getElementById('wrap').getBoundingClientRect().top;")) < 2,
              "the summary's header row stays at the top of the table (sticky)")
    d.js("document.getElementById('wrap').scrollTop = 0;")
    if name == "desktop":
        d.screenshot(Path(f"{prefix}-{name}.png"))

    # States (issues 20 and 29): the summary has the four kinds of issue 20 at least, and every
    # state of every answer shows in its cell as the text Rust wrote for it, with its note and
    # source in the title (an "ignored" value says so in its text); a cell's drill-down lists
    # each state with its note and source.
    kinds = {st["state"] for r in rows for a in r["answers"] for st in a.get("states", [])}
    check(kinds >= {"ignored", "deprecated", "known-bug", "needs"}, f"the summary has all four states ({sorted(kinds)})")
    with_states = [(r, a) for r in rows for a in r["answers"] if a.get("states")]
    for r, a in with_states:
        got = d.js("""const td = [...document.querySelectorAll('td.cell')].find(t => t.dataset.row === arguments[0] && t.dataset.col === arguments[1]);
            return td ? {text: (td.querySelector('.answer') || td).textContent,
                         states: [...td.querySelectorAll('span.state')].map(s => [s.textContent, s.title])} : null;""", r["id"], a["family"])
        shown = [st for st in a["states"] if st["state"] != "ignored"]
        ok = got is not None and len(got["states"]) == len(shown) and all(
            st["text"] in text and (st.get("note") or "") in title and st["source"] in title
            for st, (text, title) in zip(shown, got["states"]))
        if any(st["state"] == "ignored" for st in a["states"]):
            ok = ok and got["text"].startswith("ignored")
        check(ok, f"{a['family']} {r['label']}: its states {[st['state'] for st in a['states']]} show with note and source")
    r, a = next((r, a) for r, a in with_states if any(st["state"] == "known-bug" for st in a["states"]))
    d.click(f"td.cell[data-row='{r['id']}'][data-col='{a['family']}']")
    detail = page_state(d)["detail"] or ""
    for st in a["states"]:
        check(st["text"] in detail and (st.get("note") or "") in detail and st["source"] in detail,
              f"the drill-down of {a['family']} {r['label']} lists its {st['state']} state with note and source")
    d.open(uri)

    # Filter: exactly the summary rows whose text holds the word, and the URL keeps it.
    d.type("#filter", FEATURE)
    expected = [r["id"] for r in rows if summary_matches(r, FEATURE)]
    shown = visible_rows(d)
    check(shown == expected and 0 < len(shown) < len(rows), f"filter {FEATURE!r} keeps the {len(expected)} matching summary rows")
    check("q=" + FEATURE in page_state(d)["hash"], "the filter is in the URL")
    check(d.js("return document.getElementById('count').textContent;").startswith(f"{len(shown)} of {len(rows)}"),
          "the counter says how many features are shown")

    # The addchdir_np row: each family's answer and evidence as the summary JSON has them.
    row = next(r for r in rows if r["id"].endswith("." + "posix_spawn_file_actions_" + FEATURE))
    for f in families:
        a = next((a for a in row["answers"] if a["family"] == f["id"]), None)
        got = d.js("""const td = [...document.querySelectorAll('td.cell')].find(t => t.dataset.row === arguments[0] && t.dataset.col === arguments[1]);
            if (!td) return null;
            const r = td.getBoundingClientRect();
            return {answer: (td.querySelector('.answer') || td).textContent, badges: [...td.querySelectorAll('.badge')].map(b => b.textContent).join(''),
                    onscreen: r.left >= 0 && r.right <= window.innerWidth && r.width > 0};""", row["id"], f["id"])
        check(got is not None, f"{f['title']}: a cell for {row['label']}")
        if a is None:
            check(got["answer"] == "?" and got["badges"] == "", f"{f['title']}: '?' (nothing known)")
        else:
            letters = "".join(EV_LETTER[e] for e in a["evidence"])
            check(got["answer"] == a["text"] and got["badges"] == letters, f"{f['title']}: {a['text']} {letters}")
        if mobile:
            check(got["onscreen"], f"{f['title']}: the cell is within the {width} px screen")
    glibc = next(a for a in row["answers"] if a["family"] == families[0]["id"])

    # Drill-down 1: a summary cell opens its answer with every release behind it.
    fam = families[0]
    d.click(f"td.cell[data-row='{row['id']}'][data-col='{fam['id']}']")
    st = page_state(d)
    check(st["detail"] is not None and glibc["text"] in st["detail"], f"the {fam['title']} cell opens its answer ({glibc['text']})")
    hist = d.js("return [...document.querySelectorAll('#history tr[data-release]')].map(t => t.dataset.release);")
    check(hist == [h["release"] for h in glibc["history"]], f"the answer lists its {len(hist)} releases in order")
    check(st["selected"] == [[row["id"], fam["id"]]] and "cell=" in st["hash"], "the selection is marked and in the URL")
    no_overflow(d, width, "summary with the answer open")
    if mobile:
        d.screenshot(Path(f"{prefix}-{name}.png"))

    # Drill-down 2: to the full table, filtered to this row and family.
    d.click("#to-full")
    st = page_state(d)
    check(st["view"] == "full" and st["q"] == row["id"] and st["family"] == fam["id"] and "view=full" in st["hash"],
          "'Full table' opens the full view filtered to the row and family")
    check(visible_rows(d) == [row["id"]], "the full table shows that one row")
    cols = d.js("return [...document.querySelectorAll('#matrix thead th[data-col]')].map(t => t.dataset.col);")
    check(cols == [f"{fam['id']}@{r['release']}" for r in fam["releases"]], f"one column per {fam['title']} release, in order")

    # Each release's cell shows its merged value and evidence.
    got = d.js("""return Object.fromEntries([...document.querySelectorAll('td.cell')].map(t =>
        [t.dataset.col, [t.firstChild.textContent.trim(), [...t.querySelectorAll('.badge')].map(b => b.textContent).join('')]]));""")
    want = {f"{f}@{r['release']}": list(shown_cell(c[0], c[1]))
            for (f, r), c in zip(releases, cells[row["id"]]) if f == fam["id"] and c}
    check(got == want, f"each {fam['title']} release cell shows its merged value and evidence ({len(want)} cells)")

    # Drill-down 3: one release's evidence, every column of it.
    rel = next(r for f, r in releases if f == fam["id"] and r["release"] == glibc["since"])
    col_id = f"{fam['id']}@{rel['release']}"
    d.click(f"td.cell[data-col='{col_id}']")
    st = page_state(d)
    check(st["detail"] is not None, f"clicking release {rel['release']} opens its evidence")
    matrix_row = next(r for r in data["rows"] if r["id"] == row["id"])
    items = d.js("return [...document.querySelectorAll('#detail .evidence-item')].map(e => [e.dataset.col, e.innerText]);")
    with_cell = [k for k in rel["columns"] if k in matrix_row["cells"]]
    check([k for k, _ in items] == with_cell and with_cell,
          f"the evidence lists each of the release's {len(with_cell)} columns ({', '.join(c.split('@')[1] for c in with_cell)})")
    for key, text in items:
        cell = matrix_row["cells"][key]
        check(cell["evidence"] in text and all(cell[k] in text for k in ("source", "note", "how") if k in cell),
              f"{key}: evidence {cell['evidence']}, with its source/note/how")
    full_hash = st["hash"]
    no_overflow(d, width, "full table with the evidence open")
    if mobile:
        first = d.js("return document.querySelector('#matrix tbody tr[data-row] th').getBoundingClientRect().width;")
        check(first <= 0.4 * width, f"the row-label column is narrow ({first:.0f} px of {width})")
        d.screenshot(Path(f"{prefix}-{name}-full.png"))

    # Back and forward walk the views.
    d.js("history.back();")
    d.wait("return document.body.dataset.view === 'full' && document.getElementById('detail').hidden;",
           "back: the full table without the evidence")
    d.js("history.back();")
    d.wait("return document.body.dataset.view === 'summary' && !document.getElementById('detail').hidden;",
           "back again: the summary with the answer open")
    check(page_state(d)["q"] == FEATURE and visible_rows(d) == expected, "... and the filter restored")
    d.js("history.forward();")
    d.wait("return document.body.dataset.view === 'full';", "forward: the full table again")

    # A shared URL restores a view: the full table, its filter, family and open evidence ...
    d.open(uri + full_hash)
    st = page_state(d)
    check(st["view"] == "full" and st["q"] == row["id"] and st["family"] == fam["id"], f"the URL {full_hash} restores the full view and its filter")
    check(st["selected"] == [[row["id"], col_id]] and st["detail"] is not None and all(k in st["detail"] for k in with_cell),
          "... and the release's evidence")
    # ... and a summary view with another row's answer open (an error-reporting row).
    err = next(r for s in summary["sections"] if s["id"] == "errors" for r in s["rows"] if r["answers"])
    ans = err["answers"][-1]
    d.open(uri + "#" + urllib.parse.urlencode({"q": err["label"], "cell": f"{err['id']}|{ans['family']}"}))
    st = page_state(d)
    check(st["view"] == "summary" and st["q"] == err["label"] and err["id"] in visible_rows(d),
          f"a summary URL restores the filter {err['label']!r}")
    check(st["selected"] == [[err["id"], ans["family"]]] and ans["text"] in (st["detail"] or ""), f"... and the answer {ans['text']!r}")
    d.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}));")
    st = page_state(d)
    check(st["detail"] is None and "cell=" not in st["hash"], "Escape closes the answer")
    d.click(f"td.cell[data-row='{err['id']}'][data-col='{ans['family']}']")
    d.click("#to-full-all")
    st = page_state(d)
    heads = d.js("return [...document.querySelectorAll('#matrix thead th[data-col]')].map(t => t.dataset.col);")
    check(st["view"] == "full" and st["family"] == "" and visible_rows(d) == [err["id"]]
          and heads == [f"{f}@{r['release']}" for f, r in releases], "'every family' opens the row with every release")
    d.open(uri + "#q=no-such-feature-at-all")
    check(visible_rows(d) == [] and d.js("return document.querySelectorAll('#matrix tr.empty').length;") == 1,
          "a filter that matches nothing says so")

    # The baselines view: each cell is the embedded baseline JSON's answer; the family filter
    # keeps that family's baselines; a cell opens its reason.
    view = d.js("return JSON.parse(document.getElementById('baseline-data').textContent);")
    if view:
        d.open(uri + "#" + urllib.parse.urlencode({"view": "baselines", "q": FEATURE}))
        row = next(r for r in view["rows"] if r["id"].endswith("_" + FEATURE))
        shown = d.js("return [...document.querySelectorAll('#matrix tbody td.cell')].filter(t => t.dataset.row === arguments[0])"
                     ".map(t => [t.dataset.col, t.textContent]);", row["id"])
        expected = [[a["baseline"], "?" if a["value"] == "unknown" else a["value"]] for a in row["answers"]]
        check(page_state(d)["view"] == "baselines" and shown == expected,
              f"the baselines view shows {row['id']} for all {len(expected)} baselines as the embedded view says")
        no_overflow(d, width, "baselines")
        if mobile:
            label = d.js("return document.querySelector('#matrix tbody tr[data-row] th').getBoundingClientRect().width;")
            check(label <= 0.4 * width, f"baselines: the sticky row-label column is narrow ({label:.0f} px of {width})")
        first = view["baselines"][0]
        answer = next(a for a in row["answers"] if a["baseline"] == first["id"])
        d.click(f"td.cell[data-row='{row['id']}'][data-col='{first['id']}']")
        st = page_state(d)
        check(answer["why"] in (st["detail"] or "") and f"cell={urllib.parse.quote(row['id'] + '|' + first['id'], safe='')}" in st["hash"],
              f"a baseline cell ({first['id']}) opens its reason, and the URL names it")
        d.screenshot(Path(f"{prefix}-{name}-baselines.png"))
        d.open(uri + "#" + urllib.parse.urlencode({"view": "baselines", "family": first["family"]}))
        heads = d.js("return [...document.querySelectorAll('#matrix thead th[data-col]')].map(t => t.dataset.col);")
        check(heads == [b["id"] for b in view["baselines"] if b["family"] == first["family"]],
              f"the family filter keeps the {len(heads)} {first['family']} baselines")

    # The kernel & sandboxes view: every kernel and sandbox row, each family's cell with the
    # embedded answer's text and evidence letters; a cell opens its answer.
    sections = d.js("return JSON.parse(document.getElementById('sections-data').textContent);")
    if sections:
        d.open(uri + "#view=sections")
        want_rows = [r["id"] for s in sections["sections"] for r in s["rows"]]
        check(page_state(d)["view"] == "sections" and visible_rows(d) == want_rows,
              f"the kernel & sandboxes view shows its {len(want_rows)} rows")
        for section in sections["sections"]:
            for row in section["rows"]:
                drawn = d.js("return [...document.querySelectorAll('#matrix tbody td.cell')].filter(t => t.dataset.row === arguments[0] && t.textContent)"
                             ".map(t => [t.dataset.col, t.textContent, t.title]);", row["id"])
                answering = {a["family"] for a in row["answers"]}
                shown = [[col, text] for col, text, _ in drawn if col in answering]
                expected = [[a["family"], a["text"] + " " + "".join(EV_LETTER[e] for e in a["evidence"])] for a in row["answers"]]
                same = sorted(shown) == sorted(expected)
                check(same, f"{row['id']}: one cell per answering family, as embedded ({len(expected)})"
                      + ("" if same else f": shown {sorted(shown)}, embedded {sorted(expected)}"))
                # A family without an answer shows text only where its platform.yaml says why
                # (`unread`), and then the reason is the cell's title.
                unexplained = [col for col, _, title in drawn if col not in answering and (not title or title == "not run there")]
                if unexplained:
                    check(False, f"{row['id']}: cells without an answer show text but no reason: {unexplained}")
        no_overflow(d, width, "kernel & sandboxes")
        row = sections["sections"][-1]["rows"][0]
        answer = row["answers"][0]
        d.click(f"td.cell[data-row='{row['id']}'][data-col='{answer['family']}']")
        st = page_state(d)
        check(answer["text"] in (st["detail"] or "") and answer["history"][0]["release"] in (st["detail"] or ""),
              f"a {answer['family']} cell opens its answer and the columns it ran on")
        d.screenshot(Path(f"{prefix}-{name}-sections.png"))

    # The full table's own controls.
    d.open(uri + "#view=full")
    check(visible_rows(d) == [r["id"] for r in data["rows"]], f"the full table shows all {len(data['rows'])} rows")
    heads = d.js("return [...document.querySelectorAll('#matrix thead th[data-col]')].map(t => t.dataset.col);")
    check(heads == [f"{f}@{r['release']}" for f, r in releases], f"... and one column per release ({len(heads)})")
    no_overflow(d, width, "full table")
    if not mobile:
        group = data["groups"][-1]["id"]
        d.js("const g = document.getElementById('group'); g.value = arguments[0]; g.dispatchEvent(new Event('change'));", group)
        in_group = [r["id"] for r in data["rows"] if r["group"] == group]
        check(visible_rows(d) == in_group, f"group {group!r} shows exactly its {len(in_group)} rows")
        d.js("const g = document.getElementById('group'); g.value = ''; g.dispatchEvent(new Event('change'));")
        flagged = [r["id"] for r in data["rows"] if any(c and len(c) > 2 and c[2] for c in cells[r["id"]])]
        if expect_disagreement:
            check(len(flagged) > 0, f"the data has {len(flagged)} rows with a disagreement")
            check(d.js("return document.querySelectorAll('td.cell.conflict .warn-mark').length;") > 0, "flagged cells carry the mark")
        d.click("#conflicts-only")
        check(visible_rows(d) == flagged, f"'disagreements only' shows the {len(flagged)} flagged rows")
        if expect_disagreement:
            d.click("td.cell.conflict")
            check("disagree" in (page_state(d)["detail"] or ""), "a flagged cell's evidence says what disagrees")
        d.click("#conflicts-only")
        first = heads[0]
        d.click("#matrix thead th[data-col] button[title='move right']")
        after = d.js("return [...document.querySelectorAll('#matrix thead th[data-col]')].map(t => t.dataset.col);")
        check(after[1] == first and after[0] == heads[1], "the first column moved one place right")
        d.open(uri + page_state(d)["hash"])
        check(d.js("return [...document.querySelectorAll('#matrix thead th[data-col]')].map(t => t.dataset.col);") == after,
              "the URL restores the column order")
        scroll_to_bottom(d)
        top = d.js("return document.querySelector('#matrix thead th').getBoundingClientRect().top;")
        check(abs(top - d.js("return document.getElementById('wrap').getBoundingClientRect().top;")) < 2,
              "the full table's header row stays at the top while it scrolls (sticky)")
        d.open(uri + full_hash)
        d.screenshot(Path(f"{prefix}-{name}-full.png"))


def main():
    args = sys.argv[1:]
    expect_disagreement = "--expect-disagreement" in args
    args = [a for a in args if a != "--expect-disagreement"]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    page, prefix = Path(args[0]), args[1]
    if not page.is_file():
        print(f"browser-test: {page} does not exist", file=sys.stderr)
        return 2
    driver_bin = shutil.which("chromedriver")
    if driver_bin is None:
        print("browser-test: chromedriver not found (ci/setup.sh apt-browser installs it)", file=sys.stderr)
        return 1
    port = free_port()
    started = time.monotonic()
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
                for name, width, height, mobile in WIDTHS:
                    run_width(d, page.resolve().as_uri(), name, width, height, mobile, prefix, expect_disagreement)
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
    print(f"browser-test: all checks passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
