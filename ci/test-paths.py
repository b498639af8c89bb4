#!/usr/bin/env python3
"""Fails on a test that names a path some platform of the workflow lacks.

    ci/test-paths.py [ROOT...]        (default: tests spawn/tests)
    ci/test-paths.py --self-test

`cargo test` runs on Linux here and on macOS, FreeBSD and Cygwin in the GitHub workflow. A
string literal in a test that names `/proc`, `/dev/fd`, `/sys`, `/etc`, `/usr/bin/...` or a
`/bin/` program that is not in `/bin` on all four (`/bin/true` is `/usr/bin/true` on macOS
and FreeBSD; FreeBSD mounts no `/proc`, and its `/dev/fd` lists only 0-2) fails there. Such a
literal passes only inside a Linux gate: a block, item or file under `#[cfg(...)]` /
`cfg!(...)` naming `target_os = "linux"` (or `android`), a test with
`#[cfg_attr(not(target_os = "linux"), ignore = "...")]`, a module declared under such a
`cfg` (`#[path = ...] mod x;` too), or a line marked `// portable-path: REASON` (on it or
the line above) for a use that falls back when the path is missing. Otherwise use
`support::on_path("true")` and the library's `open_fds`. Comments are not scanned.
"""
import os
import re
import sys
import tempfile

# In /bin on Linux (merged /usr), macOS, FreeBSD and Cygwin (where /bin is /usr/bin).
PORTABLE_BIN = {
    "cat", "chmod", "cp", "date", "dd", "df", "echo", "expr", "hostname", "kill", "ln", "ls",
    "mkdir", "mv", "ps", "pwd", "rm", "rmdir", "sh", "sleep", "test",
}
# In /usr/bin on all four.
PORTABLE_USR_BIN = {"env"}

LINUX = r'target_os\s*=\s*"(?:linux|android)"'
GATE = re.compile(
    r'(?:#!?\[\s*cfg\s*\((?!\s*not\s*\()[^\]]*' + LINUX + r')'
    r'|(?:cfg!\s*\((?!\s*not\s*\()[^)]*' + LINUX + r')'
    r'|(?:cfg_attr\s*\(\s*not\s*\([^)]*' + LINUX + r'[^)]*\)\s*,\s*ignore)'
)
FILE_GATE = re.compile(r'#!\[\s*cfg\s*\((?!\s*not\s*\()[^\]]*' + LINUX)
MARK = "portable-path:"


def bad_path(text):
    """The reason `text` (a literal's contents) names a non-portable path, or None."""
    why = {
        "proc": "macOS has no /proc and FreeBSD does not mount it",
        "dev/fd": "FreeBSD's /dev/fd lists only fds 0-2 without fdescfs",
        "sys": "only Linux has /sys",
        "etc": "/etc's files differ by platform (Cygwin has no /etc/passwd by default)",
    }
    for m in re.finditer(r'(?<![\w.$}])/(proc|dev/fd|sys|etc)(?=/|\b|$)', text):
        return f"/{m.group(1)} ({why[m.group(1)]})"
    for m in re.finditer(r'(?<![\w.$}])/(usr/bin|bin)/([A-Za-z0-9_.+-]+)', text):
        where, name = m.groups()
        ok = PORTABLE_USR_BIN if where == "usr/bin" else PORTABLE_BIN
        if name not in ok:
            return f"/{where}/{name} (not in /{where} on every platform: find it on PATH)"
    return None


def strip_and_literals(src):
    """Source with comments blanked and braces and semicolons inside literals blanked
    (newlines kept), the string literals as (line, text), and each line's comment text (for
    the marker)."""
    out, lits, comments = [], [], {}
    i, n, line = 0, len(src), 1
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            comments[line] = comments.get(line, "") + src[i:j]
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            chunk = src[i:j]
            line += chunk.count("\n")
            out.append(re.sub(r"[^\n]", " ", chunk))
            i = j
        elif c == "r" and re.match(r'r#*"', src[i:]) and not (i and (src[i - 1].isalnum() or src[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", src[i:]).group(1)
            start = i + 2 + len(hashes)
            end = src.find('"' + hashes, start)
            end = n if end < 0 else end
            lits.append((line, src[start:end]))
            chunk = src[i:end + 1 + len(hashes)]
            line += chunk.count("\n")
            out.append(re.sub(r"[{};]", " ", chunk))
            i = end + 1 + len(hashes)
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            chunk = src[i:j + 1]
            if not re.search(r"\b(ignore|reason|note|expected)\s*=\s*$", "".join(out[-40:])):
                lits.append((line, chunk[1:-1]))
            line += chunk.count("\n")
            out.append(re.sub(r"[{};]", " ", chunk))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", src[i:]):
            m = re.match(r"'(\\.|[^\\'])'", src[i:])
            out.append("' '")
            i += len(m.group(0))
        else:
            if c == "\n":
                line += 1
            out.append(c)
            i += 1
    return "".join(out), lits, comments


def gated_lines(code):
    """The set of line numbers inside a block whose header (attributes and signature, or an
    `if cfg!(...)` condition) is a Linux gate, the header's own lines included."""
    gated, stack, header, line, start = set(), [], [], 1, 1
    for c in code:
        if c == "{":
            gate = bool(GATE.search("".join(header)))
            if gate:
                gated.update(range(start, line + 1))
            stack.append(gate or (stack[-1] if stack else False))
            header, start = [], line
        elif c in "};":
            if c == "}" and stack:
                stack.pop()
            header, start = [], line
        else:
            header.append(c)
        if c == "\n":
            line += 1
            if not "".join(header).strip():
                start = line
        if stack and stack[-1]:
            gated.add(line)
    return gated


def gated_modules(paths):
    """Files declared as modules under a Linux gate, or inside a file-gated root: the paths
    of `#[path = "..."] mod x;` and `mod x;` (x.rs or x/mod.rs beside the declaring file)."""
    gated = set()
    for p in paths:
        src = open(p, encoding="utf-8").read()
        code, _, _ = strip_and_literals(src)
        whole = bool(FILE_GATE.search(code))
        for m in re.finditer(r'((?:#\s*\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', src):
            attrs, name = m.groups()
            if not (whole or GATE.search(attrs)):
                continue
            base = os.path.dirname(p)
            pm = re.search(r'#\s*\[\s*path\s*=\s*"([^"]+)"', attrs)
            stem = os.path.splitext(p)[0]
            cands = [os.path.join(base, pm.group(1))] if pm else [
                os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs"),
                os.path.join(stem, name + ".rs"), os.path.join(stem, name, "mod.rs")]
            gated.update(os.path.normpath(c) for c in cands)
    return gated


def rust_files(roots):
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x not in ("target", "downstream"))
            for f in sorted(files):
                if f.endswith(".rs"):
                    yield os.path.normpath(os.path.join(d, f))


def check(roots):
    files = list(rust_files(roots))
    gated_files = gated_modules(files)
    while True:  # whatever a gated file declares is gated too
        more = set(gated_files)
        for f in files:
            if f in gated_files:
                more |= gated_modules_all(f)
        if more == gated_files:
            break
        gated_files = more
    problems = []
    for f in files:
        src = open(f, encoding="utf-8").read()
        code, lits, comments = strip_and_literals(src)
        if f in gated_files or FILE_GATE.search(code):
            continue
        gated = gated_lines(code)
        for line, text in lits:
            why = bad_path(text)
            if not why or line in gated:
                continue
            if MARK in comments.get(line, "") or MARK in comments.get(line - 1, ""):
                continue
            problems.append(f"{f}:{line}: {why}: {text[:60]!r}")
    return problems


def gated_modules_all(p):
    """Every module file `p` declares (used for files that are gated as a whole)."""
    out = set()
    src = open(p, encoding="utf-8").read()
    base, stem = os.path.dirname(p), os.path.splitext(p)[0]
    for m in re.finditer(r'((?:#\s*\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', src):
        attrs, name = m.groups()
        pm = re.search(r'#\s*\[\s*path\s*=\s*"([^"]+)"', attrs)
        cands = [os.path.join(base, pm.group(1))] if pm else [
            os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs"),
            os.path.join(stem, name + ".rs"), os.path.join(stem, name, "mod.rs")]
        out.update(os.path.normpath(c) for c in cands)
    return out


SELF_TEST = {
    # file -> must it be flagged?
    "bad_true.rs": ('fn t() { Command::new("/bin/true"); }\n', True),
    "bad_proc.rs": ('fn t() { c.args(["-c", "ls /proc/self/fd"]); }\n', True),
    "bad_devfd.rs": ('fn t() { std::fs::read_dir("/dev/fd"); }\n', True),
    "bad_usr.rs": ('fn t() { run("/usr/bin/sh"); }\n', True),
    "bad_raw.rs": ('fn t() { let s = r#"/bin/true"#; }\n', True),
    "bad_notlinux.rs": ('#[cfg(not(target_os = "linux"))]\nfn t() { f("/proc/self/fd"); }\n', True),
    "ok_sh.rs": ('fn t() { Command::new("/bin/sh"); write("#!/bin/sh\\nexit 0\\n"); }\n', False),
    "ok_comment.rs": ('// reads /proc/self/fd\n/// `/bin/true`\nfn t() {}\n', False),
    "ok_item_gate.rs": ('#[cfg(target_os = "linux")]\nfn t() {\n    read("/proc/self/fd");\n}\n', False),
    "ok_if_gate.rs": ('fn t() {\n    if cfg!(target_os = "linux") {\n        read("/proc/self/status");\n    }\n}\n', False),
    "ok_ignore_gate.rs": ('#[test]\n#[cfg_attr(not(target_os = "linux"), ignore = "reads /proc")]\nfn t() {\n    read("/proc/self/status");\n}\n', False),
    "ok_file_gate.rs": ('#![cfg(target_os = "linux")]\nfn t() { read("/proc/self/fd"); }\n', False),
    "ok_marker.rs": ('fn t() {\n    // portable-path: falls back to sysconf\n    read("/proc/sys/kernel/ngroups_max");\n}\n', False),
    "ok_tmp.rs": ('fn t() { x("/tmp\\0x"); y("${tmp}/proc"); z("/dev/null"); }\n', False),
    "ok_stmt_gate.rs": ('fn t() {\n    #[cfg(target_os = "linux")]\n    if let Some(n) = read("/proc/sys/x")\n    {\n        return n;\n    }\n}\n', False),
    "ok_case_gate.rs": ('#[cfg(target_os = "linux")]\n#[rstest]\n#[case::a(&["--out", "/proc/self"])]\nfn t(#[case] a: &[&str]) {}\n', False),
    "bad_after_gate.rs": ('#[cfg(target_os = "linux")]\nfn a() { read("/proc/self/fd"); }\nfn b() { read("/proc/self/fd"); }\n', True),
    "root.rs": ('#[cfg(target_os = "linux")]\n#[path = "sub/gated.rs"]\nmod gated;\n', False),
    "sub/gated.rs": ('fn t() { read("/proc/self/fd"); }\n', False),
}


def self_test():
    with tempfile.TemporaryDirectory() as d:
        for name, (text, _) in SELF_TEST.items():
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        flagged = {os.path.relpath(p.split(":")[0], d) for p in check([d])}
        wrong = [n for n, (_, bad) in SELF_TEST.items() if (n in flagged) != bad]
        if wrong:
            print("test-paths self-test: wrong verdict for " + ", ".join(wrong), file=sys.stderr)
            return 1
    print(f"test-paths self-test: {len(SELF_TEST)} fixtures judged as expected")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    roots = argv[1:] or ["tests", "spawn/tests"]
    problems = check(roots)
    for p in problems:
        print(p, file=sys.stderr)
    n = sum(1 for _ in rust_files(roots))
    if problems:
        print(f"test-paths: {len(problems)} literal(s) name a path some workflow platform lacks "
              "(see ci/test-paths.py for the gates)", file=sys.stderr)
        return 1
    print(f"test-paths: {n} files, no ungated Linux-only path")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
