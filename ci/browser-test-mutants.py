#!/usr/bin/env python3
"""Proves that ci/browser-test.py can fail: breaks the page in one way at a time (a mutant) and
expects the browser test to reject every one. Not part of .ci/run (about 3 minutes); run it
after changing page.html or the browser test.

Usage: ci/browser-test-mutants.py PAGE.html [MUTANT...]
  PAGE.html  a page written by spawnmatrix (out/index.html)
Exit status 0 when every mutant was caught; 1 naming those that survived, or a mutant whose
text no longer occurs in the page (update the table below with the page).
"""

import subprocess
import sys
import tempfile
from pathlib import Path

TEST = Path(__file__).with_name("browser-test.py")

# name -> (text, replacement, ...): each pair is applied to the page.
MUTANTS = {
    "default-view-full": ('state.view = p.get("view") === "full" ? "full" : "summary";',
                          'state.view = p.get("view") === "summary" ? "summary" : "full";'),
    "no-url-state": ("function saveState(push) {", "function saveState(push) { return;"),
    "cell-not-restored": ("state.cell = cell.length === 2 && cell[0] && cell[1] ? cell : null;", "state.cell = null;"),
    "cols-not-restored": ("state.cols = cols.length ? cols : null;", "state.cols = null;"),
    "no-popstate": ('window.addEventListener("popstate"', 'window.addEventListener("nopopstate"'),
    "filter-ignored": ("function matchesText(texts, q) { return !q ||", "function matchesText(texts, q) { return true ||"),
    "answer-by-index": ("const a = row.answers.find(x => x.family === f.id);\n        const attrs",
                        "const a = row.answers[summary.families.indexOf(f)];\n        const attrs"),
    "drill-down-without-family": ('Object.assign(state, { view: "full", q: rowId, family: familyId,',
                                  'Object.assign(state, { view: "full", q: rowId, family: "",'),
    "release-cells-shifted": ("const c = (releaseCells[rowId] || [])[rel.index];",
                              "const c = (releaseCells[rowId] || [])[rel.index + 1];"),
    "no-summary-css": ("#matrix.summary", "#matrix.x"),
    "wide-first-column": ("min-width: 30vw; max-width: 34vw;", "min-width: 60vw; max-width: 70vw;"),
    "header-scrolls-away": ("height: 100vh; height: 100dvh; overflow: hidden; }", "}",
                            "html, body { height: 100%; }", "",
                            "header { flex: none; position: sticky;", "header { flex: none; position: static;"),
}


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    page = Path(sys.argv[1]).read_text()
    names = sys.argv[2:] or list(MUTANTS)
    bad = []
    with tempfile.TemporaryDirectory(prefix="spawnmatrix-mutants-") as tmp:
        for name in names:
            pairs = MUTANTS[name]
            mutant = page
            for text, replacement in zip(pairs[::2], pairs[1::2]):
                if text not in mutant:
                    print(f"{name}: {text!r} no longer occurs in the page")
                    bad.append(name)
                    break
                mutant = mutant.replace(text, replacement)
            else:
                path = Path(tmp) / f"{name}.html"
                path.write_text(mutant)
                r = subprocess.run([sys.executable, str(TEST), str(path), str(Path(tmp) / name)],
                                   capture_output=True, text=True)
                failed = [line for line in r.stderr.splitlines() if "FAILED" in line]
                if r.returncode == 0:
                    print(f"{name}: SURVIVED (the browser test passed a broken page)")
                    bad.append(name)
                else:
                    print(f"{name}: caught: {failed[0][:160] if failed else r.stderr[-160:]}")
    if bad:
        print(f"browser-test-mutants: {len(bad)} not caught: {', '.join(bad)}", file=sys.stderr)
        return 1
    print(f"browser-test-mutants: all {len(names)} mutants caught")
    return 0


if __name__ == "__main__":
    sys.exit(main())
